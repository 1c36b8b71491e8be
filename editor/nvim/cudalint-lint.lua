-- cudalint-lint.lua: cudalint as an nvim-lint linter
-- (https://github.com/mfussenegger/nvim-lint), which pipes the buffer to
-- `cudalint --stdin-filename`.  The language server (cudalint.lua) does the
-- same and more (quick fixes); use this where nvim-lint is already set up.
-- Copy to ~/.config/nvim/lua/cudalint-lint.lua and add to init.lua:
--   require('cudalint-lint')
--   vim.api.nvim_create_autocmd({ 'BufWritePost', 'InsertLeave', 'TextChanged' },
--     { callback = function() require('lint').try_lint() end })
local lint = require('lint')

local severities = {
  error = vim.diagnostic.severity.ERROR,
  warning = vim.diagnostic.severity.WARN,
  note = vim.diagnostic.severity.INFO,
}

lint.linters.cudalint = {
  cmd = 'cudalint',
  stdin = true,
  append_fname = false,
  args = {
    '--format', 'json', '--exit-zero', '--stdin-filename',
    function() return vim.api.nvim_buf_get_name(0) end, '-',
  },
  stream = 'stdout',
  ignore_exitcode = true,
  parser = function(output, bufnr)
    local ok, doc = pcall(vim.json.decode, output)
    if not ok or type(doc) ~= 'table' then return {} end
    local out = {}
    for _, d in ipairs(doc.diagnostics or {}) do
      -- cudalint's lines and columns are 1-based and count bytes; end is exclusive.
      table.insert(out, {
        bufnr = bufnr,
        lnum = d.line - 1,
        col = d.column - 1,
        end_lnum = d.end_line - 1,
        end_col = d.end_column - 1,
        severity = severities[d.severity] or vim.diagnostic.severity.WARN,
        code = d.code,
        source = 'cudalint',
        message = d.message .. ' [' .. d.rule .. ']',
      })
    end
    return out
  end,
}

lint.linters_by_ft = lint.linters_by_ft or {}
lint.linters_by_ft.cuda = { 'cudalint' }
