"""A Touchdown Heroes game played by hand against bots: start form, moves, the table page and
its replay."""
