"""Decks a user owns (see issue #3)."""
