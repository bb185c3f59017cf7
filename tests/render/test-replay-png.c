/* tests/render/test-replay-png.c: kmscon-felis-replay --png renders the final screen with the real
 * renderer.
 *
 * Usage: test-replay-png REPLAY_BINARY GOLDEN_DIR. Feeds a fixed byte stream (SGR, box drawing,
 * wide and emoji characters, a DECSCUSR cursor) through the replay tool; the PNG must be exactly
 * cols*cell_w by rows*cell_h and match golden/replay-*.png (pixel for pixel with the built-in font,
 * within 1% with DejaVu Sans Mono); double-width and double-height rows are the single row widened. Bad font
 * options must fail with an error, not crash.
 * KF_GOLDEN_UPDATE=1 rewrites.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "screen.h"

static const char input[] =
    "Hello \x1b[1;31mred\x1b[0m \x1b[4:3mcurly\x1b[0m \xe2\x94\x8c\xe2\x94\x80\xe2\x94\x90 "
    "\xf0\x9f\x98\x80\r\n\x1b[7m rev \x1b[0m \xe6\xbc\xa2\xe5\xad\x97 \x1b[38;2;255;128;0mtrue"
    "\x1b[0m\r\n\xe2\x96\x88\xe2\x96\x93\xe2\x96\x92\xe2\x96\x91 \xe2\xa3\xbf\xee\x82\xb0 "
    "\x1b[9mstrike\x1b[0m\x1b[5 q";

static int run(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int check(const char *replay, const char *dir, const char *tmp, const char *name,
		 const char *opts, int want_w, int want_h, int tolerance)
{
	char cmd[16384], out[4096], gold[4096];
	snprintf(out, sizeof(out), "%s/%s.png", tmp, name);
	snprintf(gold, sizeof(gold), "%s/%s.png", dir, name);
	snprintf(cmd, sizeof(cmd), "'%s' --size 30x4 --format none %s --png '%s' '%s/in.bin'",
		 replay, opts, out, tmp);
	if (run(cmd) != 0) {
		printf("FAIL %s: %s failed\n", name, cmd);
		return 1;
	}
	int w, h, gw, gh;
	uint32_t *px = png_read_xrgb(out, &w, &h);
	if (!px || w != want_w || h != want_h) {
		printf("FAIL %s: PNG %dx%d, want %dx%d\n", name, px ? w : -1, px ? h : -1, want_w,
		       want_h);
		free(px);
		return 1;
	}
	if (getenv("KF_GOLDEN_UPDATE")) {
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", out, gold);
		free(px);
		return run(cmd) != 0;
	}
	uint32_t *g = png_read_xrgb(gold, &gw, &gh);
	long bad = 0;
	for (long i = 0; g && gw == w && gh == h && i < (long)w * h; i++) {
		int worst = 0;
		for (int k = 0; k < 24; k += 8) {
			int d = abs((int)(px[i] >> k & 0xff) - (int)(g[i] >> k & 0xff));
			worst = d > worst ? d : worst;
		}
		bad += tolerance ? worst > 96 : worst != 0;
	}
	long allowed = tolerance ? (long)w * h / 100 : 0;
	int fail = !g || gw != w || gh != h || bad > allowed;
	printf("%s %s: %dx%d, %ld pixels differ from the golden image (allowed %ld)\n",
	       fail ? "FAIL" : "ok", name, w, h, bad, allowed);
	free(g);
	free(px);
	return fail;
}

/* The PNG of stream in (built-in font, 30x4), read back; NULL when the tool or the PNG fails. */
static uint32_t *replay_png(const char *replay, const char *tmp, const char *name, const char *in, int *w, int *h)
{
	char path[4096], out[4096], cmd[16384];
	snprintf(path, sizeof(path), "%s/%s.bin", tmp, name);
	snprintf(out, sizeof(out), "%s/%s.png", tmp, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		return NULL;
	fwrite(in, 1, strlen(in), f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "'%s' --size 30x4 --format none --font-engine builtin --png '%s' '%s'", replay, out,
		 path);
	return run(cmd) == 0 ? png_read_xrgb(out, w, h) : NULL;
}

/* Double-width and double-height rows (DECDWL, DECDHL) in the PNG, as the VM tests' screendumps compare them:
 * each pixel of the double row is the single row's widened (the top half's rows also heightened). */
static int check_dbl(const char *replay, const char *tmp)
{
	int w, h, w2, h2;
	uint32_t *one = replay_png(replay, tmp, "single", "\x1b[?25l\x1b[4mHello\x1b[m world", &w, &h);
	uint32_t *dbl = replay_png(replay, tmp, "double",
				   "\x1b[?25l\x1b#6\x1b[4mHello\x1b[m world\r\n\x1b#3\x1b[4mHello\x1b[m world", &w2, &h2);
	long bad = 0, ink = 0;
	const int cw = 8, ch = 16;
	if (one && dbl && w == w2 && h == h2 && w == 30 * cw && h == 4 * ch) {
		for (int y = 0; y < ch; y++)
			for (int x = 0; x < w; x++) {
				uint32_t want = one[(size_t)y * w + x / 2];
				bad += dbl[(size_t)y * w + x] != want;
				bad += dbl[(size_t)(ch + y) * w + x] != one[(size_t)(y / 2) * w + x / 2];
				ink += want != one[0];
			}
	} else {
		bad = -1;
	}
	free(one);
	free(dbl);
	int fail = bad != 0 || ink == 0;
	printf("%s replay-dbl: %ld pixels of the double rows differ from the single row widened\n", fail ? "FAIL" : "ok",
	       bad);
	return fail;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	char tmp[] = "/tmp/kf-replay-png-XXXXXX", path[4096], cmd[16384];
	if (!mkdtemp(tmp))
		return 1;
	snprintf(path, sizeof(path), "%s/in.bin", tmp);
	FILE *f = fopen(path, "wb");
	fwrite(input, 1, sizeof(input) - 1, f);
	fclose(f);
	int failures = 0;
	failures += check(argv[1], argv[2], tmp, "replay-builtin", "--font-engine builtin", 30 * 8,
			  4 * 16, 0);
	failures += check(argv[1], argv[2], tmp, "replay-dejavu",
			  "--font-name 'DejaVu Sans Mono' --font-size 16", 30 * 10, 4 * 19, 1);
	failures += check_dbl(argv[1], tmp);
	/* bad font options: a clear error (exit 1 or 2), never a crash */
	static const char *const bad[] = {"--font-engine psf",
					  "--font-engine psf --font-file /nonexistent.psf",
					  "--font-engine psf --font-file /etc/hostname",
					  "--font-size 0",
					  "--font-size 99999",
					  "--font-engine nosuch",
					  "--palette nosuch"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd),
			 "'%s' --format none %s --png '%s/bad.png' '%s' 2>/dev/null", argv[1],
			 bad[i], tmp, path);
		int st = run(cmd);
		if (st != 1 && st != 2) {
			printf("FAIL replay %s: exit %d, want 1 or 2\n", bad[i], st);
			failures++;
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (run(cmd))
		printf("warning: could not remove %s\n", tmp);
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
