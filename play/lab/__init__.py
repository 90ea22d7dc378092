"""The Touchdown Heroes lab's pages: the lab page that starts a study (`views`, `forms`) and a
game played by hand at the table (`games/`). What a study measures is play/studies/."""
