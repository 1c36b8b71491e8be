;;; flycheck-cudalint.el --- cudalint as a Flycheck checker  -*- lexical-binding: t; -*-

;; Flycheck (https://www.flycheck.org; Debian: elpa-flycheck) pipes the buffer
;; to `cudalint --stdin-filename FILE', so findings follow unsaved text.  The
;; language server (cudalint.el, with eglot and flymake) does the same and
;; offers the fixes too; use this where Flycheck is already set up.
;; In init.el:
;;   (with-eval-after-load 'flycheck
;;     (load "/path/to/cudalint/editor/emacs/flycheck-cudalint.el"))
;;   (add-hook 'c++-mode-hook #'flycheck-mode)   ; or cuda-mode-hook

;;; Code:

(require 'flycheck)

(flycheck-define-checker cudalint
  "CUDA linter: cudalint, on the buffer's text."
  :command ("cudalint" "--quiet" "--color" "never" "--exit-zero"
            "--stdin-filename" source-original "-")
  :standard-input t
  :error-patterns
  ((error line-start (file-name) ":" line ":" column ": error: " (message) line-end)
   (warning line-start (file-name) ":" line ":" column ": warning: " (message) line-end)
   (info line-start (file-name) ":" line ":" column ": note: " (message) line-end))
  :predicate (lambda () (and buffer-file-name (string-match-p "\\.cuh?\\'" buffer-file-name)))
  :modes (cuda-mode c++-mode c-mode))

(add-to-list 'flycheck-checkers 'cudalint)

(provide 'flycheck-cudalint)
;;; flycheck-cudalint.el ends here
