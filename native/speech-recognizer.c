/*
 * The embedded speech recogniser, kept warm: pocketsphinx's decoder is loaded once, then serves
 * utterances one after another over stdin/stdout until stdin closes.
 *
 * Requests on stdin, each a 1-byte kind and a 4-byte little-endian length, then that many bytes:
 *   'A'  audio: 16 kHz mono signed 16-bit little-endian samples, streamed as they are heard
 *        (the first 'A' after an 'E' or 'X' starts a new utterance)
 *   'E'  end of the utterance: the answer is one line on stdout, "H <words>\n" (words may be empty)
 *   'X'  cancel the utterance: nothing is answered
 * At start, once the model is loaded, it writes "R\n" (ready). Errors go to stderr, then exit 1.
 *
 *   speech-recognizer <model dir>   (e.g. /usr/share/pocketsphinx/model/en-us)
 */
#include <pocketsphinx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_full(void *buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    size_t k = fread((char *)buf + got, 1, n - got, stdin);
    if (k == 0) return 0;
    got += k;
  }
  return 1;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "/usr/share/pocketsphinx/model/en-us";
  char hmm[1024], lm[1024], dict[1024];
  snprintf(hmm, sizeof hmm, "%s/en-us", dir);
  snprintf(lm, sizeof lm, "%s/en-us.lm.bin", dir);
  snprintf(dict, sizeof dict, "%s/cmudict-en-us.dict", dir);
  /* No lattice best-path search at the end of an utterance: less CPU per utterance and the words
   * ready sooner, with the same words on the accuracy set (docs/speech-engines.md). */
  cmd_ln_t *config = cmd_ln_init(NULL, ps_args(), TRUE, "-hmm", hmm, "-lm", lm, "-dict", dict, "-samprate",
                                 "16000", "-bestpath", "no", "-logfn", "/dev/null", NULL);
  if (config == NULL) {
    fprintf(stderr, "speech-recognizer: bad configuration (model in %s?)\n", dir);
    return 1;
  }
  ps_decoder_t *ps = ps_init(config);
  if (ps == NULL) {
    fprintf(stderr, "speech-recognizer: the model in %s could not be loaded\n", dir);
    return 1;
  }
  fputs("R\n", stdout);
  fflush(stdout);
  size_t cap = 1 << 16;
  char *buf = malloc(cap);
  int in_utt = 0;
  for (;;) {
    unsigned char head[5];
    if (!read_full(head, 5)) break;
    uint32_t len = (uint32_t)head[1] | ((uint32_t)head[2] << 8) | ((uint32_t)head[3] << 16) | ((uint32_t)head[4] << 24);
    if (len > (1u << 26)) {
      fprintf(stderr, "speech-recognizer: request too large (%u bytes)\n", len);
      return 1;
    }
    if (len > cap) {
      cap = len;
      buf = realloc(buf, cap);
    }
    if (len > 0 && !read_full(buf, len)) break;
    switch (head[0]) {
      case 'A':
        if (!in_utt) {
          ps_start_utt(ps);
          in_utt = 1;
        }
        ps_process_raw(ps, (const int16 *)buf, len / 2, FALSE, FALSE);
        break;
      case 'E': {
        const char *hyp = NULL;
        if (in_utt) {
          ps_end_utt(ps);
          int32 score;
          hyp = ps_get_hyp(ps, &score);
        }
        in_utt = 0;
        printf("H %s\n", hyp ? hyp : "");
        fflush(stdout);
        break;
      }
      case 'X':
        if (in_utt) ps_end_utt(ps);
        in_utt = 0;
        break;
      default:
        fprintf(stderr, "speech-recognizer: unknown request kind %d\n", head[0]);
        return 1;
    }
  }
  ps_free(ps);
  cmd_ln_free_r(config);
  return 0;
}
