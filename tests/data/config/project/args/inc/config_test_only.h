// Only found through the config's -Iinc.
#define CONFIG_TEST_SCALE 2.0f
