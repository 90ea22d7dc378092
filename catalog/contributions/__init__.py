"""Contributions: real cards proposed by the people who own them, reviewed by editors.

`services` writes (propose, revise, review), `selectors` reads (the review queue, a user's
proposals, a card's history), `forms` and `views` are the pages.
"""
