"""confnotes lsp: the language server, over standard input and output."""

from __future__ import annotations

import click


@click.command("lsp")
@click.option(
    "--stdio", "_stdio", is_flag=True, help="Talk over standard input and output (the default and only transport; editors pass it)."
)
def command(_stdio: bool) -> None:
    """Run the language server: findings as you type, fixes, fmt, the outline and the talk clock in the editor.

    Editors start it themselves; docs/editors.md shows the setup for Neovim, Helix, Emacs and VS Code.
    Needs the 'lsp' extra: pip install 'confnotes[lsp]'.

    Exits 0 after the editor's shutdown and exit, 1 on an exit without shutdown or when the editor
    that started it (its processId) is gone.
    """
    from confnotes.edges.extras import require

    require("pygls", "the language server")
    require("lsprotocol", "the language server")
    from confnotes.lsp.server import main

    main()
