-- Headless Neovim drives confnotes lsp as a user would: open a note, wait for its diagnostics,
-- apply the quick fix of the first one, and write what the buffer then holds.
-- Environment: CONFNOTES_NOTE (the note), CONFNOTES_PYTHON (an interpreter with confnotes),
-- CONFNOTES_OUT (where the result goes: "ok" or "fail", then details).
-- Works with Neovim 0.7 (Debian bookworm) and later: only vim.lsp.start_client and request_sync.

local note = os.getenv("CONFNOTES_NOTE")
local python = os.getenv("CONFNOTES_PYTHON")
local out = os.getenv("CONFNOTES_OUT")

local function finish(ok, lines)
  local file = assert(io.open(out, "w"))
  file:write((ok and "ok" or "fail") .. "\n" .. table.concat(lines, "\n") .. "\n")
  file:close()
  vim.cmd("qall!")
end

local function lsp_code(diagnostic)
  local data = diagnostic.user_data and diagnostic.user_data.lsp
  return (data and data.code) or diagnostic.code
end

local function run()
  vim.cmd("edit " .. vim.fn.fnameescape(note))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "confnotes",
    cmd = { python, "-m", "confnotes", "lsp" },
    root_dir = vim.fn.fnamemodify(note, ":p:h"),
  })
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)

  if not vim.wait(60000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50) then
    return finish(false, { "no diagnostics arrived" })
  end
  local diagnostic = vim.diagnostic.get(bufnr)[1]
  local found = { "diagnostic " .. tostring(lsp_code(diagnostic)) .. " line " .. (diagnostic.lnum + 1) .. ": " .. diagnostic.message }

  -- rebuilt from Neovim's diagnostic (0.7 keeps only code and data of the LSP one); the note is ASCII,
  -- so Neovim's byte columns are the server's UTF-16 ones
  local lsp_diagnostic = {
    range = {
      start = { line = diagnostic.lnum, character = diagnostic.col },
      ["end"] = { line = diagnostic.end_lnum, character = diagnostic.end_col },
    },
    message = diagnostic.message,
    code = lsp_code(diagnostic),
    severity = diagnostic.severity,
  }
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = lsp_diagnostic.range,
    context = { diagnostics = { lsp_diagnostic }, only = { "quickfix" } },
  }
  local answer = client.request_sync("textDocument/codeAction", params, 30000, bufnr)
  if not answer or answer.err or not answer.result then
    return finish(false, vim.list_extend(found, { "codeAction failed: " .. vim.inspect(answer) }))
  end
  local chosen
  for _, action in ipairs(answer.result) do
    table.insert(found, "action " .. action.title)
    if action.isPreferred and not chosen then
      chosen = action
    end
  end
  if not chosen then
    return finish(false, vim.list_extend(found, { "no preferred quick fix" }))
  end
  if not chosen.edit then
    local resolved = client.request_sync("codeAction/resolve", chosen, 30000, bufnr)
    chosen = resolved and resolved.result or chosen
  end
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding or "utf-16")

  -- the edit reaches the server as a change: the diagnostics it answers with are those of the fixed text
  local cleared = vim.wait(60000, function() return #vim.diagnostic.get(bufnr) == 0 end, 50)
  table.insert(found, "diagnostics after the fix: " .. #vim.diagnostic.get(bufnr) .. (cleared and "" or " (never cleared)"))
  table.insert(found, "--- buffer")
  vim.list_extend(found, vim.api.nvim_buf_get_lines(bufnr, 0, -1, false))
  return finish(cleared, found)
end

local ok, err = pcall(run)
if not ok then
  finish(false, { "error: " .. tostring(err) })
end
