-- cudalint.lua: starts `cudalint lsp` for CUDA buffers in Neovim's built-in
-- LSP client (Neovim 0.7 and later).  Copy it to ~/.config/nvim/lua/ and add
--   require('cudalint').setup()
-- to init.lua; pass { cmd = { '/path/to/cudalint', 'lsp', '--no-cuda-headers' } }
-- to change the command.  Diagnostics show as usual (vim.diagnostic); quick
-- fixes come through :lua vim.lsp.buf.code_action().
local M = {}

M.defaults = {
  cmd = { 'cudalint', 'lsp' },
  filetypes = { 'cuda' },
  -- The root holds compile_commands.json (or build/compile_commands.json),
  -- which the server uses for each file's flags.
  root_markers = { 'compile_commands.json', '.cudalint.yaml', '.git' },
}

local function find_root(bufnr, markers)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = vim.fn.fnamemodify(name, ':p:h')
  for _, marker in ipairs(markers) do
    local found = vim.fn.findfile(marker, dir .. ';')
    if found == '' then found = vim.fn.finddir(marker, dir .. ';') end
    if found ~= '' then return vim.fn.fnamemodify(found, ':p:h'):gsub('/%.git/?$', '') end
  end
  return vim.fn.getcwd()
end

function M.setup(opts)
  local cfg = vim.tbl_deep_extend('force', M.defaults, opts or {})
  local clients = {} -- root -> client id, for Neovim 0.7 (no vim.lsp.start)
  vim.api.nvim_create_autocmd('FileType', {
    pattern = cfg.filetypes,
    group = vim.api.nvim_create_augroup('cudalint', { clear = true }),
    callback = function(args)
      local root = find_root(args.buf, cfg.root_markers)
      if vim.lsp.start then -- 0.8+: reuses a running client with the same name and root
        vim.lsp.start({ name = 'cudalint', cmd = cfg.cmd, root_dir = root }, { bufnr = args.buf })
        return
      end
      local id = clients[root]
      if not id or not vim.lsp.get_client_by_id(id) then
        id = vim.lsp.start_client({ name = 'cudalint', cmd = cfg.cmd, root_dir = root })
        clients[root] = id
      end
      if id then vim.lsp.buf_attach_client(args.buf, id) end
    end,
  })
end

return M
