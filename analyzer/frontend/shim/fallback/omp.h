/* fallback/omp.h: the OpenMP runtime calls, for systems without an OpenMP header (searched after the system's own). */
#pragma clang system_header
#ifndef CUDALINT_FALLBACK_OMP_H
#define CUDALINT_FALLBACK_OMP_H

/* Host code in .cu files often parallelises its reference loops with
   OpenMP; without -fopenmp the pragmas are ignored, and only the runtime
   calls need declarations for the file to parse. */
typedef struct { void *lock; } omp_lock_t;
typedef struct { void *lock; } omp_nest_lock_t;
typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3,
                           omp_sched_auto = 4 } omp_sched_t;

#ifdef __cplusplus
extern "C" {
#endif
void omp_set_num_threads(int num_threads);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int dynamic_threads);
int omp_get_dynamic(void);
void omp_set_nested(int nested);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t kind, int chunk_size);
void omp_get_schedule(omp_sched_t *kind, int *chunk_size);
int omp_get_level(void);
int omp_get_thread_limit(void);
double omp_get_wtime(void);
double omp_get_wtick(void);
void omp_init_lock(omp_lock_t *lock);
void omp_destroy_lock(omp_lock_t *lock);
void omp_set_lock(omp_lock_t *lock);
void omp_unset_lock(omp_lock_t *lock);
int omp_test_lock(omp_lock_t *lock);
void omp_init_nest_lock(omp_nest_lock_t *lock);
void omp_destroy_nest_lock(omp_nest_lock_t *lock);
void omp_set_nest_lock(omp_nest_lock_t *lock);
void omp_unset_nest_lock(omp_nest_lock_t *lock);
int omp_test_nest_lock(omp_nest_lock_t *lock);
#ifdef __cplusplus
}
#endif

#endif
