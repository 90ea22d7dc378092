"""Collections: the cards a user owns (quantities per card and variant), trade marks, set
checklists, what a deck still needs, and sharing. `services` writes, `selectors` reads, `views`
are the pages and `api` the JSON API."""
