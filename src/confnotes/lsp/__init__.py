"""``confnotes lsp``: a Language Server that shows lint, fmt, the outline and the talk clock in the editor."""
