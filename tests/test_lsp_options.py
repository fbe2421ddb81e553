"""The editor's settings for confnotes lsp: what each value becomes, and what is said of one it cannot use."""

from __future__ import annotations

import pytest


def test_every_unusable_setting_is_named_with_what_is_kept():
    """``"debounceMs": "fast"`` and ``"hover": "yes"`` were dropped silently: the editor's user never
    learnt why the setting did nothing. Each is now a warning (the server shows each once)."""
    from confnotes.lsp.options import ServerOptions, read_options

    options, warnings = read_options(
        {"confnotes": {"debounceMs": "fast", "hover": "yes", "maxBytes": 10**12, "codeLens": False, "diagnostics": {"enable": 1}}}
    )
    assert options == ServerOptions(code_lens=False)
    assert warnings == [
        "confnotes.diagnostics.enable must be true or false, not 1; keeping true",
        "confnotes.hover must be true or false, not 'yes'; keeping true",
        "confnotes.debounceMs must be a number from 0 to 5000, not 'fast'; keeping 150",
        "confnotes.maxBytes 1000000000000 is outside 1000–67108864; keeping 2000000",
    ]
    assert read_options({"confnotes": {"debounceMs": 300, "hover": False}}) == (ServerOptions(debounce_ms=300, hover=False), [])


@pytest.mark.parametrize("value", [-1, 0, 999])
def test_a_max_bytes_below_its_range_keeps_the_limit(value):
    """A negative ``maxBytes`` became 0, which meant no limit at all: any note, however large, was
    analysed at every key. Out of range, the default limit is kept."""
    from confnotes.lsp.options import ServerOptions, read_options

    options, warnings = read_options({"confnotes": {"maxBytes": value}})
    assert options.max_bytes == ServerOptions().max_bytes == 2_000_000
    assert warnings == [f"confnotes.maxBytes {value} is outside 1000–67108864; keeping 2000000"]


def _message(body: dict) -> bytes:
    import json

    data = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(data), data)


def _server(process_id: int | None = None):
    import subprocess
    import sys

    pipe = subprocess.PIPE
    proc = subprocess.Popen([sys.executable, "-m", "confnotes", "lsp"], stdin=pipe, stdout=pipe, stderr=pipe)
    assert proc.stdin is not None
    init = {"processId": process_id, "rootUri": None, "capabilities": {}}
    proc.stdin.write(_message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}))
    proc.stdin.write(_message({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    proc.stdin.flush()
    return proc


@pytest.mark.parametrize("shutdown", [True, False])
def test_exit_says_whether_shutdown_came_first(shutdown, processes):
    """The spec: exit code 0 after a shutdown request, 1 without; the server said 0 both ways."""
    proc = _server()
    assert proc.stdin is not None and proc.stdout is not None
    if shutdown:
        proc.stdin.write(_message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    proc.stdin.write(_message({"jsonrpc": "2.0", "method": "exit"}))
    proc.stdin.flush()
    proc.stdout.read()  # the answers, up to the server's end
    assert proc.wait(timeout=120) == (0 if shutdown else 1)


def test_the_server_exits_when_its_editor_is_gone(processes):
    """``processId`` names the editor; one that was killed never says exit, and the server ran on."""
    import subprocess
    import sys

    editor = subprocess.Popen([sys.executable, "-c", "pass"])
    editor.wait()
    proc = _server(editor.pid)  # an editor that is gone already (its id unused for now)
    assert proc.wait(timeout=120) == 1
    assert proc.stderr is not None and "is gone; exiting" in proc.stderr.read().decode()
