/*
 * The echo canceller, a Node addon (N-API) over Debian's libspeexdsp: it removes from what the far end
 * sends back (a phone line's return, a room's microphone) the echo of what the agent said, so that the
 * agent does not hear itself and take its own voice for the caller's (src/kernel/media/echo-canceller.ts).
 *
 * Each frame pair goes through speexdsp's adaptive filter (MDF: speex_echo_cancellation), which
 * learns the echo path and subtracts its estimate of the echo, then, unless `suppress` is false,
 * through speexdsp's preprocessor attached to that filter, which lowers in each band the echo the
 * filter left (residual echo suppression; its settings are below). The preprocessor works on
 * overlapping windows: with it the cleaned frame comes out one frame late.
 *
 *   create(frameSize, sampleRate, tailSamples, suppress)  → a handle (an external, type-tagged)
 *   process(handle, heard, sent, out)   heard: the far end's frame (with the echo), sent: the agent's
 *                                       frame played at the same tick, out: the cleaned frame; all
 *                                       Int16Array of frameSize samples, out sharing no memory
 *   reset(handle)                       forgets the echo path learnt so far (a new call on the state)
 *   destroy(handle)                     frees the state now (its finalizer does it otherwise)
 *
 * Wrong arguments throw a JavaScript TypeError or RangeError; a destroyed handle throws an Error.
 * The module is context-aware (NAPI_MODULE_INIT): it loads in worker threads as in the main thread,
 * and a handle belongs to the thread that created it.
 */
#include <node_api.h>
#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
  SpeexEchoState *echo;
  SpeexPreprocessState *pre; /* NULL without residual echo suppression */
  int frame_size;
  int sample_rate;
  int64_t memory; /* what was reported to the garbage collector (napi_adjust_external_memory) */
} canceller;

/* Distinguishes our handles from any other external: a foreign one is refused, never dereferenced. */
static const napi_type_tag CANCELLER_TAG = {0x6563686f63616e63ULL, 0x656c6c6572763031ULL};

/* Roughly what speexdsp allocates (its largest arrays: the filter's 3 * tail blocks of 2 * frameSize
 * floats, and some frames' worth more), told to the garbage collector so that a forgotten handle's
 * finalizer comes in time. */
static int64_t memory_estimate(int frame_size, int tail_samples, int suppress) {
  int64_t blocks = (tail_samples + frame_size - 1) / frame_size;
  return 3 * blocks * 2 * frame_size * 4 + 20 * 2 * frame_size * 4 + (suppress ? 40 * frame_size * 4 : 0);
}

#define CHECK(call)                                                   \
  do {                                                                \
    if ((call) != napi_ok) {                                          \
      napi_throw_error(env, NULL, "echo-canceller: N-API call failed"); \
      return NULL;                                                    \
    }                                                                 \
  } while (0)

/*
 * The residual echo suppressor: speexdsp's preprocessor, on the filter's estimate of the echo it left.
 * Measured on flite's speech over a simulated line, 20 to 360 ms late, 10 to 30 dB down
 * (src/kernel/media/echo-canceller.spec.ts):
 * - While the caller is silent, the echo left is brought down by up to 40 dB (speexdsp's default):
 *   once converged the echo comes out 26 to 28 dB down in all, where the filter alone leaves 23 dB.
 * - While the caller speaks, not at all (0 dB): the suppressor steps aside and the filter alone works,
 *   and the caller comes through as when alone (correlation 0.997 or more, same level). At
 *   speexdsp's default (-15 dB) the caller came out 3 dB quieter and reshaped (correlation 0.89 to
 *   0.91), at -6 dB 2.5 dB quieter (0.96); those take 1 to 4 dB more off the echo alone, and the
 *   latest line converges to 20 dB in 4.2 s instead of 5.1 s.
 * - The noise, not at all (0 dB). The preprocessor applies no gain at all with its "denoise" off
 *   (preprocess.c sets the gains to 1), so denoise stays on with no noise suppression: the line's
 *   noise, and what the voice activity detector and the recogniser hear, are left as they are.
 *   AGC, VAD and dereverberation stay off (speexdsp's defaults; setting the VAD only prints a warning).
 */
static const spx_int32_t NOISE_SUPPRESS_DB = 0;
static const spx_int32_t ECHO_SUPPRESS_DB = -40;
static const spx_int32_t ECHO_SUPPRESS_ACTIVE_DB = 0;

static SpeexPreprocessState *new_suppressor(canceller *c) {
  SpeexPreprocessState *pre = speex_preprocess_state_init(c->frame_size, c->sample_rate);
  if (pre == NULL) return NULL;
  spx_int32_t on = 1, noise_db = NOISE_SUPPRESS_DB, echo_db = ECHO_SUPPRESS_DB;
  spx_int32_t echo_active_db = ECHO_SUPPRESS_ACTIVE_DB;
  speex_preprocess_ctl(pre, SPEEX_PREPROCESS_SET_ECHO_STATE, c->echo);
  speex_preprocess_ctl(pre, SPEEX_PREPROCESS_SET_DENOISE, &on); /* for any gain at all: see above */
  speex_preprocess_ctl(pre, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &noise_db);
  speex_preprocess_ctl(pre, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS, &echo_db);
  speex_preprocess_ctl(pre, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE, &echo_active_db);
  return pre;
}

static void free_states(canceller *c) {
  if (c->pre != NULL) speex_preprocess_state_destroy(c->pre);
  if (c->echo != NULL) speex_echo_state_destroy(c->echo);
  c->pre = NULL;
  c->echo = NULL;
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  canceller *c = data;
  if (c->echo != NULL) {
    free_states(c);
    int64_t ignored;
    napi_adjust_external_memory(env, -c->memory, &ignored);
  }
  free(c);
}

/* An int argument in [min, max], or a thrown RangeError/TypeError naming it. */
static int int_arg(napi_env env, napi_value value, const char *what, int min, int max, int *out) {
  napi_valuetype type;
  double d;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_number) {
    napi_throw_type_error(env, NULL, what);
    return 0;
  }
  napi_get_value_double(env, value, &d);
  if (!(d >= min && d <= max) || d != (double)(int)d) {
    napi_throw_range_error(env, NULL, what);
    return 0;
  }
  *out = (int)d;
  return 1;
}

/* The canceller behind a handle, or NULL with an exception thrown (not ours, or destroyed). */
static canceller *handle_arg(napi_env env, napi_value value) {
  napi_valuetype type;
  bool ours = false;
  void *data = NULL;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_external ||
      napi_check_object_type_tag(env, value, &CANCELLER_TAG, &ours) != napi_ok || !ours ||
      napi_get_value_external(env, value, &data) != napi_ok) {
    napi_throw_type_error(env, NULL, "echo-canceller: not an echo canceller handle");
    return NULL;
  }
  canceller *c = data;
  if (c->echo == NULL) {
    napi_throw_error(env, NULL, "echo-canceller: used after destroy");
    return NULL;
  }
  return c;
}

/* The samples of an Int16Array of exactly `length` samples, or NULL with an exception thrown. */
static int16_t *frame_arg(napi_env env, napi_value value, const char *what, int length) {
  bool is_typed = false;
  napi_typedarray_type type;
  size_t count = 0;
  void *data = NULL;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, value, &type, &count, &data, NULL, NULL) != napi_ok ||
      type != napi_int16_array) {
    napi_throw_type_error(env, NULL, what);
    return NULL;
  }
  if (count != (size_t)length || (length > 0 && data == NULL)) {
    napi_throw_range_error(env, NULL, what);
    return NULL;
  }
  return data;
}

static napi_value undefined_value(napi_env env) {
  napi_value value = NULL;
  napi_get_undefined(env, &value);
  return value;
}

static int overlaps(const int16_t *a, const int16_t *b, int length) {
  return a < b + length && b < a + length;
}

static napi_value create(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 4) {
    napi_throw_type_error(env, NULL, "echo-canceller: create(frameSize, sampleRate, tailSamples, suppress)");
    return NULL;
  }
  int frame_size, sample_rate, tail_samples;
  bool suppress;
  /* Bounds: 1 ms at 8 kHz up to 40 ms at 48 kHz, and at most 2 s of tail at 48 kHz. */
  if (!int_arg(env, argv[0], "echo-canceller: frameSize must be an integer from 8 to 1920", 8, 1920, &frame_size) ||
      !int_arg(env, argv[1], "echo-canceller: sampleRate must be an integer from 8000 to 48000", 8000, 48000,
               &sample_rate) ||
      !int_arg(env, argv[2], "echo-canceller: tailSamples must be an integer from 1 to 96000", 1, 96000,
               &tail_samples))
    return NULL;
  if (napi_get_value_bool(env, argv[3], &suppress) != napi_ok) {
    napi_throw_type_error(env, NULL, "echo-canceller: suppress must be a boolean");
    return NULL;
  }
  canceller *c = calloc(1, sizeof *c);
  if (c == NULL) {
    napi_throw_error(env, NULL, "echo-canceller: out of memory");
    return NULL;
  }
  c->frame_size = frame_size;
  c->sample_rate = sample_rate;
  c->echo = speex_echo_state_init(frame_size, tail_samples);
  if (c->echo == NULL) {
    free(c);
    napi_throw_error(env, NULL, "echo-canceller: speex_echo_state_init failed");
    return NULL;
  }
  spx_int32_t rate = sample_rate;
  speex_echo_ctl(c->echo, SPEEX_ECHO_SET_SAMPLING_RATE, &rate);
  if (suppress && (c->pre = new_suppressor(c)) == NULL) {
    free_states(c);
    free(c);
    napi_throw_error(env, NULL, "echo-canceller: speex_preprocess_state_init failed");
    return NULL;
  }
  napi_value handle;
  if (napi_create_external(env, c, finalize, NULL, &handle) != napi_ok) {
    free_states(c);
    free(c);
    napi_throw_error(env, NULL, "echo-canceller: could not create the handle");
    return NULL;
  }
  if (napi_type_tag_object(env, handle, &CANCELLER_TAG) != napi_ok) {
    /* The external exists: its finalizer frees `c` (the states are freed now, so it frees no more). */
    free_states(c);
    napi_throw_error(env, NULL, "echo-canceller: could not create the handle");
    return NULL;
  }
  c->memory = memory_estimate(frame_size, tail_samples, suppress);
  int64_t ignored;
  napi_adjust_external_memory(env, c->memory, &ignored);
  return handle;
}

static napi_value process(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 4) {
    napi_throw_type_error(env, NULL, "echo-canceller: process(handle, heard, sent, out)");
    return NULL;
  }
  canceller *c = handle_arg(env, argv[0]);
  if (c == NULL) return NULL;
  int n = c->frame_size;
  int16_t *heard = frame_arg(env, argv[1], "echo-canceller: heard must be an Int16Array of frameSize samples", n);
  if (heard == NULL) return NULL;
  int16_t *sent = frame_arg(env, argv[2], "echo-canceller: sent must be an Int16Array of frameSize samples", n);
  if (sent == NULL) return NULL;
  int16_t *out = frame_arg(env, argv[3], "echo-canceller: out must be an Int16Array of frameSize samples", n);
  if (out == NULL) return NULL;
  if (overlaps(out, heard, n) || overlaps(out, sent, n)) {
    napi_throw_range_error(env, NULL, "echo-canceller: out must not share memory with heard or sent");
    return NULL;
  }
  speex_echo_cancellation(c->echo, heard, sent, out);
  if (c->pre != NULL) speex_preprocess_run(c->pre, out);
  return NULL;
}

static napi_value reset(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  canceller *c = handle_arg(env, argc < 1 ? undefined_value(env) : argv[0]);
  if (c == NULL) return NULL;
  speex_echo_state_reset(c->echo);
  /* The preprocessor has no reset: a new one, attached to the same filter, starts from nothing. */
  if (c->pre != NULL) {
    SpeexPreprocessState *fresh = new_suppressor(c);
    if (fresh == NULL) {
      napi_throw_error(env, NULL, "echo-canceller: speex_preprocess_state_init failed");
      return NULL;
    }
    speex_preprocess_state_destroy(c->pre);
    c->pre = fresh;
  }
  return NULL;
}

static napi_value destroy(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  canceller *c = handle_arg(env, argc < 1 ? undefined_value(env) : argv[0]);
  if (c == NULL) return NULL;
  free_states(c);
  int64_t ignored;
  napi_adjust_external_memory(env, -c->memory, &ignored);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
      {"create", NULL, create, NULL, NULL, NULL, napi_enumerable, NULL},
      {"process", NULL, process, NULL, NULL, NULL, napi_enumerable, NULL},
      {"reset", NULL, reset, NULL, NULL, NULL, napi_enumerable, NULL},
      {"destroy", NULL, destroy, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok) return NULL;
  return exports;
}
