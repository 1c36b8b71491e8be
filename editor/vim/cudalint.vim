" cudalint for Vim with ALE (https://github.com/dense-analysis/ale; Debian:
" apt-get install vim-ale, then `packadd! ale` in your vimrc).  ALE pipes the
" buffer to `cudalint --stdin-filename FILE`, so findings follow the text as
" you type, and :ALEFix applies cudalint's safe fixes to the buffer.
"
" Install: copy this file to ~/.vim/plugin/cudalint.vim (or source it from
" your vimrc after `packadd! ale`), then in your vimrc:
"   let g:ale_linters = {'cuda': ['cudalint']}
"   let g:ale_fixers = {'cuda': ['cudalint']}
" Options for cudalint (-p build, --cuda-path ...): let g:cudalint_options = '-p build'

let g:cudalint_executable = get(g:, 'cudalint_executable', 'cudalint')
let g:cudalint_options = get(g:, 'cudalint_options', '')

" cudalint --format json -> ALE's loclist items.
function! CudalintAleHandle(buffer, lines) abort
    let l:items = []
    try
        let l:doc = json_decode(join(a:lines, "\n"))
    catch
        return l:items
    endtry
    for l:d in get(l:doc, 'diagnostics', [])
        call add(l:items, {
        \   'lnum': l:d.line,
        \   'col': l:d.column,
        \   'end_lnum': l:d.end_line,
        \   'end_col': max([l:d.column, l:d.end_column - 1]),
        \   'code': l:d.code,
        \   'text': l:d.message . ' [' . l:d.rule . ']',
        \   'type': l:d.severity ==# 'error' ? 'E' : l:d.severity ==# 'warning' ? 'W' : 'I',
        \})
    endfor
    return l:items
endfunction

call ale#linter#Define('cuda', {
\   'name': 'cudalint',
\   'executable': {b -> g:cudalint_executable},
\   'command': {b -> '%e --format json --exit-zero ' . g:cudalint_options . ' --stdin-filename %s -'},
\   'callback': 'CudalintAleHandle',
\   'output_stream': 'stdout',
\})

" :ALEFix: the fixed buffer comes back on stdout.
function! CudalintAleFix(buffer) abort
    return {'command': ale#Escape(g:cudalint_executable) . ' --fix --exit-zero --quiet '
    \   . g:cudalint_options . ' --stdin-filename %s -'}
endfunction
call ale#fix#registry#Add('cudalint', 'CudalintAleFix', ['cuda'], 'apply cudalint''s safe fixes')
