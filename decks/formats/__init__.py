"""A deck in text: the deck text format (shared/spec/deck-format.md) read and written (`text`),
the downloads (`export`: text, JSON, Markdown, name lists), and a version's stored summary
(`version_text`)."""
