" ale_test.vim: drives editor/vim/cudalint.vim with Debian's vim-ale in a
" headless Vim (tests/vim_ale.sh).  Writes "RESULT PASS" or the failures to
" $CUDALINT_VIM_RESULT.
set nocompatible
packadd! ale
let g:ale_linters = {'cuda': ['cudalint']}
let g:ale_fixers = {'cuda': ['cudalint']}
let g:ale_lint_on_text_changed = 'never'
let g:ale_lint_on_insert_leave = 0
let g:ale_lint_on_enter = 0
let g:ale_echo_cursor = 0
let g:ale_set_highlights = 0
let g:ale_set_signs = 0
let g:cudalint_executable = $CUDALINT
let g:cudalint_options = '--no-cuda-headers --no-cache'
execute 'source ' . fnameescape($CUDALINT_VIM_SNIPPET)
filetype plugin on
syntax off

let s:fail = []
let s:log = []
function! s:Check(cond, what) abort
    if !a:cond | call add(s:fail, a:what) | endif
endfunction

function! s:WaitLint(what) abort
    ALELint
    let l:t = 0
    " ALE starts the job a little later; wait for it to start, then to end.
    while l:t < 6000
        sleep 100m
        let l:t += 100
        if l:t > 300 && !ale#engine#IsCheckingBuffer(bufnr('')) | break | endif
    endwhile
    let l:items = ale#engine#GetLoclist(bufnr(''))
    call add(s:log, a:what . ': ' . len(l:items) . ' items after ' . l:t . 'ms: ' . string(map(copy(l:items), '[v:val.lnum, v:val.col, v:val.code]')))
    return l:items
endfunction

function! s:Run() abort
    execute 'edit ' . fnameescape($CUDALINT_VIM_FIXTURE)
    call s:Check(&filetype ==# 'cuda', 'filetype is cuda, not ' . &filetype)
    let l:items = s:WaitLint('saved file')
    call s:Check(len(l:items) == 3, 'three CU201 findings on the file (got ' . len(l:items) . ')')
    call s:Check(len(l:items) && l:items[0].lnum == 7 && l:items[0].code ==# 'CU201' && l:items[0].type ==# 'W',
    \   'the first at line 7, CU201, a warning')
    " Unsaved text: two lines inserted at the top move the findings, and a new
    " literal is found on a line that exists only in the buffer.
    call append(0, ['// unsaved', '__device__ float g(float x) { return x * 0.2; }'])
    let l:items = s:WaitLint('edited buffer')
    call s:Check(len(l:items) == 4, 'four findings in the edited buffer (got ' . len(l:items) . ')')
    call s:Check(len(l:items) && l:items[0].lnum == 2 && l:items[0].code ==# 'CU201', 'a finding on the unsaved line 2')
    call s:Check(len(l:items) > 1 && l:items[1].lnum == 9, 'the file''s first finding moved to line 9')
    call s:Check(&modified, 'the buffer is still unsaved')
    " :ALEFix applies the fixes to the buffer.
    ALEFix
    let l:t = 0
    while l:t < 6000 && getline(9) !~# '0\.1f'
        sleep 100m
        let l:t += 100
    endwhile
    call add(s:log, 'after ALEFix (' . l:t . 'ms): ' . getline(2) . ' | ' . getline(9))
    call s:Check(getline(2) =~# '0\.2f' && getline(9) =~# '0\.1f' && getline(10) =~# '0\.999f + 0\.001f',
    \   ':ALEFix wrote the fixes into the buffer')
    let l:items = s:WaitLint('fixed buffer')
    call s:Check(len(l:items) == 0, 'no findings left after :ALEFix (got ' . len(l:items) . ')')
    call s:Check(readfile($CUDALINT_VIM_FIXTURE)[6] =~# '\* 0\.1;', 'the file on disk is untouched')
endfunction

" After start-up, when ALE's plugin is loaded.
function! s:Main() abort
    try
        call s:Run()
    catch
        call add(s:fail, 'exception: ' . v:exception . ' at ' . v:throwpoint)
    endtry
    call writefile(s:log + (empty(s:fail) ? ['RESULT PASS'] : map(s:fail, '"FAIL: " . v:val')), $CUDALINT_VIM_RESULT)
    qall!
endfunction
autocmd VimEnter * ++nested call s:Main()
