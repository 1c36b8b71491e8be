;;; cudalint.el --- cudalint's language server in Emacs through eglot  -*- lexical-binding: t; -*-

;; Diagnostics (through flymake) and quick fixes (M-x eglot-code-actions)
;; for CUDA files from `cudalint lsp'.  Needs eglot: built into Emacs 29 and
;; later; for Emacs 26.3-28, M-x package-install RET eglot.
;;
;; Load it from init.el:
;;   (load "/path/to/cudalint.el")
;; and, to change the command:
;;   (setq cudalint-program "/opt/cudalint/bin/cudalint"
;;         cudalint-args '("--no-cuda-headers"))
;;
;; eglot runs one server per buffer.  .cu/.cuh files are put in `cuda-mode'
;; when that package (MELPA) is installed, so that clangd keeps C++ buffers;
;; otherwise they get a `c++-mode' derivative, `cudalint-cuda-mode'.

;;; Code:

(require 'eglot)

(defgroup cudalint nil
  "The cudalint language server."
  :group 'tools)

(defcustom cudalint-program "cudalint"
  "The cudalint executable."
  :type 'string)

(defcustom cudalint-args nil
  "Arguments appended to `cudalint lsp', e.g. (\"-p\" \"build\")."
  :type '(repeat string))

(unless (fboundp 'cuda-mode)
  (define-derived-mode cudalint-cuda-mode c++-mode "CUDA"
    "C++ mode for CUDA files, linted by cudalint."))

(defconst cudalint--modes
  (if (fboundp 'cuda-mode) '(cuda-mode) '(cudalint-cuda-mode))
  "Major modes whose buffers cudalint lints.")

(add-to-list 'auto-mode-alist (cons "\\.cuh?\\'" (car cudalint--modes)))

(defun cudalint--contact (&rest _)
  "The command line eglot starts."
  (append (list cudalint-program "lsp") cudalint-args))

(add-to-list 'eglot-server-programs (cons cudalint--modes #'cudalint--contact))

(dolist (mode cudalint--modes)
  (add-hook (intern (format "%s-hook" mode)) #'eglot-ensure))

(provide 'cudalint)
;;; cudalint.el ends here
