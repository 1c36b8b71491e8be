# scripts.cmake: one cudalint_script_test() line per integration script test.
cudalint_script_test(cache.behaviour ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cache_test.py)
cudalint_script_test(confirm.static sh ${CMAKE_SOURCE_DIR}/tests/confirm_static.sh)
set_tests_properties(confirm.static PROPERTIES TIMEOUT 900 LABELS slow)
cudalint_script_test(confirm.fake_gpu sh ${CMAKE_SOURCE_DIR}/tests/confirm_fake_gpu.sh)
set_tests_properties(confirm.fake_gpu PROPERTIES TIMEOUT 900 LABELS slow)
cudalint_script_test(integrations.precommit sh ${CMAKE_SOURCE_DIR}/tests/precommit.sh)
cudalint_script_test(integrations.sarif_validate sh ${CMAKE_SOURCE_DIR}/tests/sarif_validate.sh)
cudalint_script_test(integrations.formats ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/formats_test.py)
cudalint_script_test(integrations.config ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/config_test.py)
cudalint_script_test(integrations.baseline ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/baseline_test.py)
cudalint_script_test(integrations.fix ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/fix_test.py)
cudalint_script_test(lsp.session ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/lsp_session.py)
set_tests_properties(lsp.session PROPERTIES TIMEOUT 900)
cudalint_script_test(lsp.nvim sh ${CMAKE_SOURCE_DIR}/tests/nvim_lsp.sh)
cudalint_script_test(lsp.emacs sh ${CMAKE_SOURCE_DIR}/editor/emacs/check.sh)
# Under the ASan+UBSan pass, with LeakSanitizer on, the server Emacs starts publishes no
# diagnostics (the same binary passes with detect_leaks=0, or with its stderr sent to a file instead
# of Emacs's pipe; cause not found yet). Leak checking of the server stays in lsp.session and lsp.nvim.
if(CUDALINT_SANITIZE)
  set_tests_properties(lsp.emacs PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:use_sigaltstack=0")
endif()
cudalint_script_test(meta.setup_packages ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/setup_packages.py)
# A clean Debian 12 root (needs root and the network; minutes): `ctest -LE fresh` leaves it out.
cudalint_script_test(fresh.machine sh ${CMAKE_SOURCE_DIR}/tests/fresh_machine.sh)
set_tests_properties(fresh.machine PROPERTIES TIMEOUT 3600 LABELS "fresh;slow" PROCESSORS 2)
# The candidate rules' PTX facts and CU403's ptxas calibration (skips without nvcc).
cudalint_script_test(kernels.candidates ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/kernels/candidates/measure.py --check)
set_tests_properties(kernels.candidates PROPERTIES TIMEOUT 600)
# nvcc's full-unroll threshold and the unroll pragmas, against analysis/unroll.h (skips without nvcc).
cudalint_script_test(kernels.unroll_threshold ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/unroll_threshold.py)
set_tests_properties(kernels.unroll_threshold PROPERTIES TIMEOUT 1800 LABELS slow)
# Issue 16: --stdin-filename, --statistics, -o, the progress line, --shard.
cudalint_script_test(ux.cli ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/ux_test.py)
set_tests_properties(ux.cli PROPERTIES TIMEOUT 600)
# Issue 16: the README's sharded GitHub Actions and GitLab CI workflows run as written.
cudalint_script_test(ux.ci_workflow ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/ci_workflow_test.py)
set_tests_properties(ux.ci_workflow PROPERTIES TIMEOUT 600)
# Issue 16: the man page and completions list what --help lists; bash completes; cmake --install.
cudalint_script_test(ux.install ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/install_test.py ${CMAKE_BINARY_DIR})
# Issue 16: the .deb installs and runs in a clean Debian 12 root (root, network, minutes).
cudalint_script_test(fresh.deb sh ${CMAKE_SOURCE_DIR}/tests/deb_test.sh ${CMAKE_BINARY_DIR})
set_tests_properties(fresh.deb PROPERTIES TIMEOUT 3600 LABELS "fresh;slow" PROCESSORS 2)
# Issue 16: editor recipes that pipe the buffer to --stdin-filename, with real clients.
cudalint_script_test(editor.vim_ale sh ${CMAKE_SOURCE_DIR}/tests/vim_ale.sh)
cudalint_script_test(editor.flycheck sh ${CMAKE_SOURCE_DIR}/editor/emacs/flycheck-check.sh)
cudalint_script_test(editor.efm sh ${CMAKE_SOURCE_DIR}/tests/efm_nvim.sh)
# tools/new_rule.py on a copy of the checkout: the scaffold builds, its fixtures pass, meta accepts all but its placeholders.
cudalint_script_test(meta.new_rule sh ${CMAKE_SOURCE_DIR}/tests/new_rule_test.sh)
set_tests_properties(meta.new_rule PROPERTIES TIMEOUT 1200 LABELS slow)
# Reliability under hostile input (issue 11).  bad_input and fix_safety set
# address-space limits that AddressSanitizer cannot run under: label slow, so
# the ASan pass of .ci/run leaves them out; the fuzz smoke run builds its own
# instrumented build-fuzz/ (skipped without clang-22's libFuzzer).
cudalint_script_test(robust.bad_input ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/bad_input.py)
set_tests_properties(robust.bad_input PROPERTIES TIMEOUT 1200 LABELS "robust;slow")
cudalint_script_test(robust.fix_safety ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/fix_safety.py)
set_tests_properties(robust.fix_safety PROPERTIES TIMEOUT 1800 LABELS "robust;slow")
cudalint_script_test(robust.lsp_abuse ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/lsp_abuse.py)
set_tests_properties(robust.lsp_abuse PROPERTIES TIMEOUT 900 LABELS robust)
# A lint process stuck before its first or after its last file does not hold the run.
cudalint_script_test(robust.child_stall ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/child_stall.py)
set_tests_properties(robust.child_stall PROPERTIES TIMEOUT 600 LABELS robust)
cudalint_script_test(robust.no_exec ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/no_exec.py)
set_tests_properties(robust.no_exec PROPERTIES TIMEOUT 600 LABELS robust SKIP_RETURN_CODE 77)
cudalint_script_test(robust.fuzz_smoke sh ${CMAKE_SOURCE_DIR}/tests/fuzz/run.sh --smoke)
set_tests_properties(robust.fuzz_smoke PROPERTIES TIMEOUT 1800 LABELS "robust;fuzz;slow" SKIP_RETURN_CODE 77)
# The speed benchmark cannot pass by accident: broken references give ERROR
# and a non-zero exit (issue 24).
cudalint_script_test(bench.selftest ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/bench_selftest.py)
set_tests_properties(bench.selftest PROPERTIES TIMEOUT 1200 LABELS slow)
# One device pass per file unless its code tests __CUDA_ARCH__ (issue 24).
cudalint_script_test(parse.arch_passes ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/arch_passes_test.py)
set_tests_properties(parse.arch_passes PROPERTIES TIMEOUT 600)
