;;; flycheck-test.el --- batch test of flycheck-cudalint.el  -*- lexical-binding: t; -*-
;; Run by editor/emacs/flycheck-check.sh: the checker on a file, then on an
;; unsaved edit that moves the findings and adds one on a line that exists
;; only in the buffer.  Exits 0 when every check passes.

(require 'flycheck)
(load (getenv "CUDALINT_FLYCHECK_SNIPPET"))
(setq flycheck-cudalint-executable (getenv "CUDALINT"))

(defvar cudalint-test-failures 0)
(defun cudalint-test-check (ok what)
  (princ (format "%s %s\n" (if ok "ok  " "FAIL") what))
  (unless ok (setq cudalint-test-failures (1+ cudalint-test-failures))))

(defun cudalint-test-lint ()
  "Runs the checker on the buffer and returns the error lines, sorted."
  (flycheck-buffer)
  (let ((waited 0))
    (while (and (< waited 600) (or (flycheck-running-p) (= waited 0)))
      (accept-process-output nil 0.1)
      (setq waited (1+ waited))))
  (sort (mapcar #'flycheck-error-line flycheck-current-errors) #'<))

(find-file (getenv "CUDALINT_FLYCHECK_FIXTURE"))
(c++-mode)
(setq-local flycheck-checkers '(cudalint))
(flycheck-mode 1)
(cudalint-test-check (eq (flycheck-get-checker-for-buffer) 'cudalint) "the cudalint checker applies")
(let ((lines (cudalint-test-lint)))
  (cudalint-test-check (equal lines '(7 8 8)) (format "the file: findings on lines 7 8 8 (got %S)" lines)))
(let ((e (car flycheck-current-errors)))
  (cudalint-test-check (and e (eq (flycheck-error-level e) 'warning)
                            (string-match-p "CU201" (flycheck-error-message e)))
                       "a warning naming CU201"))
(goto-char (point-min))
(insert "// unsaved\n__device__ float g(float x) { return x * 0.1; }\n")
(let ((lines (cudalint-test-lint)))
  (cudalint-test-check (equal lines '(2 9 10 10))
                       (format "the unsaved edit: findings on lines 2 9 10 10 (got %S)" lines)))
(cudalint-test-check (buffer-modified-p) "the buffer is still unsaved")
(kill-emacs (if (= cudalint-test-failures 0) 0 1))
