-- Headless Neovim 0.7 (Debian bookworm's, which CI installs) uses the rest of confnotes lsp as a user
-- would: the outline (document symbols), the talk clock's code lenses, formatting, and a config
-- written on disk beside the note (Neovim 0.7 watches no files for servers: the server looks itself).
-- Environment: CONFNOTES_NOTE, CONFNOTES_PYTHON, CONFNOTES_OUT (as lsp_check.lua), CONFNOTES_CONFIG
-- (the confnotes.toml to write) and CONFNOTES_CONFIG_TEXT (what to write in it).

local note = os.getenv("CONFNOTES_NOTE")
local python = os.getenv("CONFNOTES_PYTHON")
local out = os.getenv("CONFNOTES_OUT")

local function finish(ok, lines)
  local file = assert(io.open(out, "w"))
  file:write((ok and "ok" or "fail") .. "\n" .. table.concat(lines, "\n") .. "\n")
  file:close()
  vim.cmd("qall!")
end

local function run()
  local found = {}
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
  table.insert(found, "diagnostics " .. #vim.diagnostic.get(bufnr))

  -- a config written on disk (not in the editor): the note's findings change without an edit
  local before = #vim.diagnostic.get(bufnr)
  local file = assert(io.open(os.getenv("CONFNOTES_CONFIG"), "w"))
  file:write(os.getenv("CONFNOTES_CONFIG_TEXT"))
  file:close()
  local reloaded = vim.wait(60000, function() return #vim.diagnostic.get(bufnr) ~= before end, 50)
  table.insert(found, "diagnostics after the config " .. #vim.diagnostic.get(bufnr))

  local document = { textDocument = vim.lsp.util.make_text_document_params(bufnr) }
  local symbols = client.request_sync("textDocument/documentSymbol", document, 30000, bufnr)
  for _, symbol in ipairs((symbols and symbols.result) or {}) do
    table.insert(found, "symbol " .. symbol.name .. " line " .. (symbol.range.start.line + 1))
  end

  vim.lsp.codelens.refresh()
  vim.wait(30000, function() return #vim.lsp.codelens.get(bufnr) > 0 end, 50)
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    table.insert(found, "lens line " .. (lens.range.start.line + 1) .. ": " .. ((lens.command and lens.command.title) or "?"))
  end

  -- Neovim 0.7's formatting (vim.lsp.buf.format is 0.8's)
  vim.lsp.buf.formatting_sync(nil, 30000)
  table.insert(found, "--- formatted")
  vim.list_extend(found, vim.api.nvim_buf_get_lines(bufnr, 0, -1, false))
  table.insert(found, "--- end")

  return finish(reloaded, found)
end

local ok, err = pcall(run)
if not ok then
  finish(false, { "error: " .. tostring(err) })
end
