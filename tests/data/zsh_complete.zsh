# zsh_complete.zsh: drives the generated zsh completion in a real interactive
# zsh on a pseudo-terminal (zsh/zpty): types each partial command line of the
# arguments, presses Tab, then Enter, and prints what the line became (a
# stand-in `cudalint` function echoes its arguments).  Run by
# tests/install_test.py as: zsh -f zsh_complete.zsh COMPLETION_DIR 'LINE'...
zmodload zsh/zpty || exit 3
dir=$1
shift
zpty z 'zsh -f -i'
zpty -w z "PS1='> '; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -d ${(q)dir}/.zcompdump; function cudalint { print -r -- \"ARGS:\$*:END\" }; echo READY"
zpty -r z out '*READY*' || exit 4
for line in "$@"; do
    zpty -w -n z "cudalint $line"$'\t'
    sleep 1
    zpty -w -n z $'\n'
    zpty -r z out '*:END*' || exit 5
    print -r -- "RESULT ${${out##*ARGS:}%%:END*}"
done
zpty -d z
