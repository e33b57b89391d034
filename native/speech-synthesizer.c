/*
 * The embedded speech synthesiser, kept warm: flite and its slt voice are set up once, then each line
 * of text on stdin is spoken, one after another, until stdin closes.
 *
 * Request: one line of UTF-8 text (no newline inside). Answer on stdout: a 4-byte little-endian
 * sample count, a 4-byte little-endian sample rate, then the samples (mono signed 16-bit little
 * endian). An empty line answers zero samples. At start it writes the 8 bytes "READY\0\0\0".
 */
#include <flite/flite.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cst_voice *register_cmu_us_slt(const char *voxdir);

static void put_u32(uint32_t v) {
  unsigned char b[4] = {v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff};
  fwrite(b, 1, 4, stdout);
}

int main(void) {
  flite_init();
  cst_voice *voice = register_cmu_us_slt(NULL);
  if (voice == NULL) {
    fprintf(stderr, "speech-synthesizer: the slt voice could not be loaded\n");
    return 1;
  }
  fwrite("READY\0\0\0", 1, 8, stdout);
  fflush(stdout);
  size_t cap = 0;
  char *line = NULL;
  ssize_t n;
  while ((n = getline(&line, &cap, stdin)) >= 0) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    if (n == 0) {
      put_u32(0);
      put_u32(16000);
      fflush(stdout);
      continue;
    }
    cst_wave *wave = flite_text_to_wave(line, voice);
    if (wave == NULL) {
      put_u32(0);
      put_u32(16000);
    } else {
      put_u32((uint32_t)cst_wave_num_samples(wave));
      put_u32((uint32_t)cst_wave_sample_rate(wave));
      fwrite(cst_wave_samples(wave), sizeof(short), cst_wave_num_samples(wave), stdout);
      delete_wave(wave);
    }
    fflush(stdout);
  }
  free(line);
  return 0;
}
