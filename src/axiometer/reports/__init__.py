"""Reports turn result objects into text, Markdown, JSON (and later LaTeX,
HTML); they never run checks themselves."""
