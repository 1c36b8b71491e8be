/* prelude.h: a header forced in with -include by the unit tests. */
#define PRELUDE 1
