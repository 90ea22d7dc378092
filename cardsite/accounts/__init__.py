"""Accounts: sign-up, login and its throttle, for every way in (the site's login form, the
admin's, API tokens: backends.py, authentication.py).

A room of its own on the shared floor: it imports no app. Logout and passwords are Django's own
views; a user's page, which lists their decks and proposals, is decks'.
"""
