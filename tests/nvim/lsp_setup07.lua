-- Headless Neovim 0.7 runs docs/editors.md's Neovim 0.7 setup as written (CONFNOTES_SETUP: the
-- snippet, copied from the docs by tests/test_lsp_neovim.py), then opens a note: its settings
-- (init_options) must reach the server, and the first note must get its lenses with no refresh
-- of our own. Environment: CONFNOTES_SETUP, CONFNOTES_NOTE, CONFNOTES_OUT.

local out = os.getenv("CONFNOTES_OUT")

local function finish(ok, lines)
  local file = assert(io.open(out, "w"))
  file:write((ok and "ok" or "fail") .. "\n" .. table.concat(lines, "\n") .. "\n")
  file:close()
  vim.cmd("qall!")
end

local function run()
  dofile(os.getenv("CONFNOTES_SETUP"))
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CONFNOTES_NOTE")))  -- FileType markdown: the setup starts the server
  local bufnr = vim.api.nvim_get_current_buf()
  local found = {}
  if not vim.wait(60000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50) then
    return finish(false, { "no diagnostics arrived" })
  end
  vim.wait(1000)  -- every publication of the first analysis has arrived
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, "diagnostic " .. tostring(diagnostic.code) .. " severity " .. diagnostic.severity)
  end
  local lensed = vim.wait(30000, function() return #vim.lsp.codelens.get(bufnr) > 0 end, 50)
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    table.insert(found, "lens " .. ((lens.command and lens.command.title) or "?"))
  end
  return finish(lensed, found)
end

local ok, err = pcall(run)
if not ok then
  finish(false, { "error: " .. tostring(err) })
end
