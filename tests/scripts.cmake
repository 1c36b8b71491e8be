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
cudalint_script_test(meta.setup_packages ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/setup_packages.py)
# A clean Debian 12 root (needs root and the network; minutes): `ctest -LE fresh` leaves it out.
cudalint_script_test(fresh.machine sh ${CMAKE_SOURCE_DIR}/tests/fresh_machine.sh)
set_tests_properties(fresh.machine PROPERTIES TIMEOUT 3600 LABELS "fresh;slow" PROCESSORS 2)
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
cudalint_script_test(robust.no_exec ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/no_exec.py)
set_tests_properties(robust.no_exec PROPERTIES TIMEOUT 600 LABELS robust SKIP_RETURN_CODE 77)
cudalint_script_test(robust.fuzz_smoke sh ${CMAKE_SOURCE_DIR}/tests/fuzz/run.sh --smoke)
set_tests_properties(robust.fuzz_smoke PROPERTIES TIMEOUT 1800 LABELS "robust;fuzz;slow" SKIP_RETURN_CODE 77)
