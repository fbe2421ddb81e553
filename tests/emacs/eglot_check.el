;;; eglot_check.el --- confnotes lsp in Emacs eglot, run headless by tests/test_lsp_emacs.py
;; Loads the setup docs/editors.md gives (CONFNOTES_SETUP), opens CONFNOTES_NOTE, waits for
;; Flymake's diagnostics, applies the first quick fix, formats the buffer, and writes what it saw
;; to CONFNOTES_OUT: "ok" or "fail: why", then the diagnostics, the outline (imenu) and the buffer.

(require 'eglot)
(require 'markdown-mode)
(require 'imenu)

(defvar confnotes-out (getenv "CONFNOTES_OUT"))
(defvar confnotes-lines nil)

(defun confnotes-say (line) (push line confnotes-lines))

(defun confnotes-finish (status)
  (with-temp-file confnotes-out
    (insert status "\n" (mapconcat #'identity (reverse confnotes-lines) "\n") "\n"))
  (kill-emacs 0))

(defun confnotes-symbols (index)
  "Say every name in an imenu INDEX, nested ones too, in order."
  (dolist (entry index)
    (cond ((not (consp entry)))
          ((string= (car entry) "*Rescan*"))
          ((imenu--subalist-p entry) (confnotes-symbols (cdr entry)))
          (t (confnotes-say (format "symbol %s" (car entry)))))))

(defun confnotes-wait (predicate seconds)
  "Run the event loop until PREDICATE holds or SECONDS pass; the result of PREDICATE."
  (let ((deadline (+ (float-time) seconds)) (found nil))
    (while (and (not (setq found (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    found))

(condition-case err
    (progn
      (load (getenv "CONFNOTES_SETUP") nil t)
      (find-file (getenv "CONFNOTES_NOTE"))
      (run-hooks 'post-command-hook)  ; eglot-ensure starts the server when the command ends
      (unless (confnotes-wait (lambda () (eglot-current-server)) 60)
        (confnotes-finish "fail: eglot started no server for the note"))
      (unless (confnotes-wait (lambda () (flymake-diagnostics)) 60)
        (confnotes-finish "fail: no diagnostics within 60 s"))
      (dolist (diag (sort (flymake-diagnostics)
                          (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
        (confnotes-say (format "diagnostic line %d: %s"
                               (line-number-at-pos (flymake-diagnostic-beg diag))
                               (flymake-diagnostic-text diag))))
      (let ((imenu-auto-rescan t))  ; eglot 1.9 groups the outline by kind, later ones nest it
        (confnotes-symbols (imenu--make-index-alist t)))
      (goto-char (flymake-diagnostic-beg (car (flymake-diagnostics))))
      ;; the quick fix the menu offers first, applied as choosing it does
      (let ((actions (eglot-code-actions (line-beginning-position) (line-end-position) "quickfix")))
        (confnotes-say (format "actions %s" (mapconcat (lambda (a) (plist-get a :title)) actions " | ")))
        (eglot--read-execute-code-action (list (car actions)) (eglot-current-server) "quickfix"))
      (eglot-format-buffer)
      (confnotes-say "--- buffer")
      (confnotes-say (string-trim-right (buffer-substring-no-properties (point-min) (point-max))))
      (confnotes-finish "ok"))
  (error (confnotes-finish (format "fail: %S" err))))
