# scripts.cmake: one cudalint_script_test() line per integration script test.
cudalint_script_test(cache.behaviour ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/cache_test.py)
cudalint_script_test(confirm.static sh ${CMAKE_SOURCE_DIR}/tests/confirm_static.sh)
set_tests_properties(confirm.static PROPERTIES TIMEOUT 900 LABELS slow)
cudalint_script_test(confirm.fake_gpu sh ${CMAKE_SOURCE_DIR}/tests/confirm_fake_gpu.sh)
set_tests_properties(confirm.fake_gpu PROPERTIES TIMEOUT 900 LABELS slow)
