# scripts.cmake: one cudalint_script_test() line per integration script test.
