-- lsp_test.lua: drives Neovim's built-in LSP client (0.7 and later) against
-- `cudalint lsp`; run headless by tests/nvim_lsp.sh, which reads the report.
--
-- Opens the fixture, waits for the diagnostics, checks them as Neovim stores
-- them, requests the code actions at the finding and applies one with
-- vim.lsp.util.apply_workspace_edit, then applies the other through the user
-- path (vim.lsp.buf.code_action with vim.ui.select answered automatically),
-- and checks that the buffer changed and the diagnostics followed the edits.
-- Then loads editor/nvim/cudalint.lua ($CUDALINT_NVIM_SNIPPET) the way a
-- user's init.lua does and checks that it attaches the server to the file.
local bin = assert(os.getenv('CUDALINT'), 'CUDALINT not set')
local fixture = assert(os.getenv('CUDALINT_NVIM_FIXTURE'), 'CUDALINT_NVIM_FIXTURE not set')
local result_file = assert(os.getenv('CUDALINT_NVIM_RESULT'), 'CUDALINT_NVIM_RESULT not set')
local extra = os.getenv('CUDALINT_LSP_ARGS') or ''
local timeout = tonumber(os.getenv('CUDALINT_NVIM_TIMEOUT_MS') or '90000')

local report, failed = {}, false
local function check(cond, what)
  table.insert(report, (cond and 'ok   ' or 'FAIL ') .. what)
  if not cond then failed = true end
  return cond
end

local function cu201(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == 'CU201' then table.insert(out, d) end
  end
  table.sort(out, function(a, b) return a.col < b.col end)
  return out
end

local function run()
  check(vim.version ~= nil, 'neovim ' .. tostring(vim.version and vim.version().major) .. '.' ..
        tostring(vim.version and vim.version().minor) .. '.' .. tostring(vim.version and vim.version().patch))
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local bufnr = vim.api.nvim_get_current_buf()
  local cmd = { bin, 'lsp' }
  for a in extra:gmatch('%S+') do table.insert(cmd, a) end
  local id = vim.lsp.start_client({
    name = 'cudalint',
    cmd = cmd,
    root_dir = vim.fn.fnamemodify(fixture, ':h'),
  })
  if not check(id ~= nil, 'vim.lsp.start_client started cudalint lsp') then return end
  vim.lsp.buf_attach_client(bufnr, id)
  local client = vim.lsp.get_client_by_id(id)

  local arrived = vim.wait(timeout, function() return #cu201(bufnr) > 0 end, 50)
  if not check(arrived, 'diagnostics arrived') then return end
  local diags = cu201(bufnr)
  check(#diags == 2, 'two CU201 findings (got ' .. #diags .. ')')
  local line = vim.api.nvim_buf_get_lines(bufnr, 6, 7, false)[1]
  local col = line:find('0.999', 1, true) - 1
  local d = diags[1]
  -- Neovim turns the server's UTF-16 columns into bytes: the non-ASCII
  -- comment before the literal makes the two differ.
  check(d.lnum == 6 and d.col == col and d.end_col == col + 5,
        string.format('finding at line 7 byte column %d..%d (got %d:%d..%d)', col, col + 5,
                      d.lnum + 1, d.col, d.end_col))
  check(d.source == 'cudalint', 'source is cudalint')
  check(d.severity == vim.diagnostic.severity.WARN, 'severity is a warning')
  local href = ((d.user_data or {}).lsp or {}).codeDescription
  check(href and tostring(href.href):match('/rules/CU201%-double%-literal%.md$') ~= nil,
        'codeDescription.href names the rule doc')

  -- Code actions at the first literal, as :lua vim.lsp.buf.code_action() asks.
  vim.api.nvim_win_set_cursor(0, { 7, col + 1 })
  local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr) }
  local resp = client.request_sync('textDocument/codeAction', params, 10000, bufnr)
  local actions = resp and resp.result or {}
  local chosen
  for _, a in ipairs(actions) do
    if a.title and a.title:find('0.999f', 1, true) then chosen = a end
  end
  if not check(chosen ~= nil, 'a code action offers 0.999f (got ' .. #actions .. ' actions)') then return end
  check(chosen.kind == 'quickfix', 'its kind is quickfix')
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  line = vim.api.nvim_buf_get_lines(bufnr, 6, 7, false)[1]
  check(line:find('v * 0.999f + 0.001;', 1, true) ~= nil, 'the buffer now reads 0.999f: ' .. line)
  -- Neovim sends the edit as an incremental didChange; the server re-lints.
  check(vim.wait(timeout, function() return #cu201(bufnr) == 1 end, 50),
        'after the edit one finding is left')

  -- The user path: code_action() and a selection answered at once.
  local left = cu201(bufnr)[1]
  if left then
    vim.api.nvim_win_set_cursor(0, { left.lnum + 1, left.col + 1 })
    local orig_select = vim.ui.select
    vim.ui.select = function(items, _, on_choice) on_choice(items[1], 1) end
    vim.lsp.buf.code_action()
    vim.wait(10000, function()
      return vim.api.nvim_buf_get_lines(bufnr, 6, 7, false)[1]:find('0.001f', 1, true) ~= nil
    end, 50)
    vim.ui.select = orig_select
    line = vim.api.nvim_buf_get_lines(bufnr, 6, 7, false)[1]
    check(line:find('v * 0.999f + 0.001f;', 1, true) ~= nil,
          'vim.lsp.buf.code_action applied the second fix: ' .. line)
    check(vim.wait(timeout, function() return #cu201(bufnr) == 0 end, 50),
          'after both fixes the diagnostics are empty')
  end

  client.stop()
  check(vim.wait(10000, function() return client.is_stopped() end, 50), 'the server shut down')

  -- The editor/nvim/cudalint.lua snippet, as a user's init.lua loads it: the
  -- FileType autocommand must start the server and attach the buffer.
  local snippet = os.getenv('CUDALINT_NVIM_SNIPPET')
  if not snippet or snippet == '' then return end
  vim.cmd('bwipeout!')
  vim.cmd('filetype on')
  dofile(snippet).setup({ cmd = cmd })
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture)) -- the file on disk was never written
  bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo[bufnr].filetype == 'cuda', 'the fixture has filetype cuda')
  check(vim.wait(timeout, function() return #cu201(bufnr) == 2 end, 50),
        'editor/nvim/cudalint.lua attached the server: two findings again')
  for _, c in pairs(vim.lsp.get_active_clients()) do c.stop() end
  check(vim.wait(10000, function() return #vim.lsp.get_active_clients() == 0 end, 50),
        'the snippet\'s server shut down')
end

local ok, err = pcall(run)
if not ok then check(false, 'error: ' .. tostring(err)) end
table.insert(report, failed and 'RESULT FAIL' or 'RESULT PASS')
vim.fn.writefile(report, result_file)
vim.cmd('qall!')
