"""The words of every mail: the Jinja renderer, the order forms, the welcome's facts
(docs/design.md: One gate; Extension points, re-theming)."""
