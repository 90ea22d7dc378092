"""Card search: the query language (query.py) and its messages (messages.py), and the reads
that run a query for the pages and the API (selectors.py). docs/search.md is its manual."""
