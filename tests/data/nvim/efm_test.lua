-- efm_test.lua: Neovim's built-in LSP client against efm-langserver running
-- editor/efm/efm-langserver.yaml, which pipes the buffer to
-- `cudalint --stdin-filename` (tests/efm_nvim.sh runs it headless).
-- Checks the findings of the file, then of an unsaved edit that moves them
-- and adds one on a line that exists only in the buffer.
local config = assert(os.getenv('CUDALINT_EFM_CONFIG'), 'CUDALINT_EFM_CONFIG not set')
local fixture = assert(os.getenv('CUDALINT_EFM_FIXTURE'), 'CUDALINT_EFM_FIXTURE not set')
local result_file = assert(os.getenv('CUDALINT_EFM_RESULT'), 'CUDALINT_EFM_RESULT not set')
local timeout = 60000

local report, failed = {}, false
local function check(cond, what)
  table.insert(report, (cond and 'ok   ' or 'FAIL ') .. what)
  if not cond then failed = true end
  return cond
end

local function lines_of(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do table.insert(out, d.lnum + 1) end
  table.sort(out)
  return table.concat(out, ',')
end

local function run()
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(fixture))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo[bufnr].filetype == 'cuda', 'filetype cuda')
  local id = vim.lsp.start_client({
    name = 'efm',
    cmd = { 'efm-langserver', '-c', config },
    root_dir = vim.fn.fnamemodify(fixture, ':h'),
  })
  if not check(id ~= nil, 'efm-langserver started') then return end
  vim.lsp.buf_attach_client(bufnr, id)
  check(vim.wait(timeout, function() return lines_of(bufnr) == '7,8,8' end, 100),
        'the file: findings on lines 7,8,8 (got ' .. lines_of(bufnr) .. ')')
  local d = vim.diagnostic.get(bufnr)[1]
  check(d and d.source == 'cudalint' and d.severity == vim.diagnostic.severity.WARN
        and d.message:find('CU201', 1, true) ~= nil, 'source cudalint, a warning naming CU201')
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, false,
    { '// unsaved', '__device__ float g(float x) { return x * 0.1; }' })
  check(vim.wait(timeout, function() return lines_of(bufnr) == '2,9,10,10' end, 100),
        'the unsaved edit: findings on lines 2,9,10,10 (got ' .. lines_of(bufnr) .. ')')
  for _, c in pairs(vim.lsp.get_active_clients()) do c.stop() end
end

local ok, err = pcall(run)
check(ok, 'no error: ' .. tostring(err))
table.insert(report, failed and 'RESULT FAIL' or 'RESULT PASS')
vim.fn.writefile(report, result_file)
vim.cmd('qall!')
