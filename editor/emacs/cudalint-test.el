;;; cudalint-test.el --- checks cudalint.el with eglot in Emacs batch mode  -*- lexical-binding: t; -*-

;; Run by editor/emacs/check.sh.  Loads cudalint.el as a user's init file
;; would, opens the fixture ($CUDALINT_EMACS_FIXTURE) so that the mode hook's
;; eglot-ensure starts `cudalint lsp' ($CUDALINT), waits for the flymake
;; diagnostics, applies the quick fix through eglot-code-actions and checks
;; that the buffer and the diagnostics follow.  Exits 0 when all checks pass.

;;; Code:

(defvar cudalint-test--failed nil)

(defun cudalint-test--check (ok what)
  (princ (format "%s %s\n" (if ok "ok  " "FAIL") what))
  (unless ok (setq cudalint-test--failed t))
  ok)

(defun cudalint-test--wait (pred seconds)
  "Runs timers and reads server output until PRED holds or SECONDS pass."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05)
      (when (bound-and-true-p flymake-mode) (flymake-start)))
    (funcall pred)))

(defun cudalint-test--cu201 ()
  (cl-remove-if-not (lambda (d) (string-match-p "\\[CU201\\]" (flymake-diagnostic-text d)))
                    (flymake-diagnostics)))

(let* ((here (file-name-directory (or load-file-name buffer-file-name)))
       (fixture (getenv "CUDALINT_EMACS_FIXTURE"))
       (timeout (string-to-number (or (getenv "CUDALINT_EMACS_TIMEOUT") "90"))))
  (setq cudalint-program (getenv "CUDALINT"))
  (load (expand-file-name "cudalint.el" here) nil t)
  (setq cudalint-args (split-string (or (getenv "CUDALINT_LSP_ARGS") "") " " t))
  (condition-case err
      (progn
        (princ (format "ok   Emacs %s\n" emacs-version))
        (find-file fixture)
        (cudalint-test--check (memq major-mode cudalint--modes)
                              (format "the fixture opens in %s" major-mode))
        ;; eglot-ensure connects from post-command-hook, after the user's
        ;; command that visited the file: run that hook as the command loop would.
        (run-hooks 'post-command-hook)
        (cudalint-test--check (cudalint-test--wait #'eglot-current-server 30)
                              "eglot-ensure started cudalint lsp")
        (cudalint-test--check (cudalint-test--wait (lambda () (= 2 (length (cudalint-test--cu201)))) timeout)
                              "flymake shows two CU201 findings")
        (let* ((d (car (sort (cudalint-test--cu201)
                             (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b))))))
               (beg (and d (flymake-diagnostic-beg d)))
               (end (and d (flymake-diagnostic-end d))))
          ;; eglot converts the server's UTF-16 columns to buffer positions:
          ;; the non-ASCII comment before the literal would shift a wrong one.
          (cudalint-test--check (and d (equal (buffer-substring-no-properties beg end) "0.999"))
                                (format "the first finding covers 0.999 (got %S)"
                                        (and d (buffer-substring-no-properties beg end))))
          (when d
            ;; As C-u M-x eglot-code-actions RET quickfix does: one action of
            ;; the asked kind is applied without a prompt.
            (eglot-code-actions beg end "quickfix" t)
            ;; eglot sends the change from an idle timer, and batch Emacs is
            ;; never idle: send it as that timer would.
            (eglot--signal-textDocument/didChange)
            (cudalint-test--check
             (save-excursion (goto-char (point-min)) (search-forward "v * 0.999f + 0.001;" nil t))
             "eglot-code-actions applied 0.999 -> 0.999f")
            (cudalint-test--check (cudalint-test--wait (lambda () (= 1 (length (cudalint-test--cu201)))) timeout)
                                  "after the edit one finding is left")))
        (let ((server (eglot-current-server)))
          (when server
            (eglot-shutdown server)
            (cudalint-test--check (not (jsonrpc-running-p server)) "the server shut down"))))
    (error (cudalint-test--check nil (format "error: %S" err))))
  (princ (if cudalint-test--failed "RESULT FAIL\n" "RESULT PASS\n"))
  (kill-emacs (if cudalint-test--failed 1 0)))

;;; cudalint-test.el ends here
