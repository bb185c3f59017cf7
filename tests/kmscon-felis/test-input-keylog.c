/* tests/kmscon-felis/test-input-keylog.c: with --debug the key log does not record what is typed. A password
 * typed at the login prompt would otherwise reach the journal (and every bug report that quotes a debug log)
 * as key codes and keysyms. Keys that type nothing (arrows, function keys, modifiers) keep their code and
 * keysym, which is what a keymap problem needs. */
static int failures;

#include "glue-harness.h"
#include "kmscon-felis/log.h"

int main(void)
{
	char dir[] = "/tmp/kf-glue-keylog-XXXXXX";
	struct app a = {0};
	struct kf_config cfg;
	struct kf_loop *loop = kf_loop_create();
	struct grid_config gc = {.cols = 80, .rows = 24, .scrollback = 100};
	struct kf_input_glue *g = glue_setup(loop, dir, &cfg, &a, &gc);
	if (!g)
		return 1;
	struct input *in = kf_input_glue_input(g);

	char log[300], text[8192] = "";
	snprintf(log, sizeof(log), "%s/stderr", dir);
	kf_log_set_level(KF_LOG_DEBUG);
	int saved = stderr_to(log);
	/* "Pw1" with Shift, then Ctrl+U, then Up and F5 */
	with(in, KEY_LEFTSHIFT, KEY_P);
	key(in, KEY_W);
	key(in, KEY_1);
	with(in, KEY_LEFTCTRL, KEY_U);
	key(in, KEY_UP);
	key(in, KEY_F5);
	stderr_back(saved, log, text, sizeof(text));
	kf_log_set_level(KF_LOG_NOTICE);
	CHECK(sent(&a, "Pw1\x15\033[A\033[15~"), "the keys typed");

	/* KEY_P 25, KEY_W 17, KEY_1 2, KEY_U 22 and their keysyms (P 0x50, w 0x77, 1 0x31, u 0x75) */
	static const char *const secret[] = {"key 25 ", "key 17 ", "key 2 ", "key 22 ", "sym 0x50 ", "sym 0x77 ",
					     "sym 0x31 ", "sym 0x75 "};
	for (size_t i = 0; i < sizeof(secret) / sizeof(secret[0]); i++)
		CHECK(!strstr(text, secret[i]), "the debug log records a typed key ('%s'):\n%s", secret[i], text);
	/* text keys are still logged, without what they are: one line per press and release, 8 in all */
	size_t n = 0;
	for (const char *q = text; (q = strstr(q, "key (types text)")); q++)
		n++;
	CHECK(n == 8, "%zu anonymous key lines, not 8:\n%s", n, text);
	/* keys that type no text keep code and keysym (KEY_UP 103 = Up 0xff52, KEY_F5 63 = F5 0xffc2, Shift 42) */
	CHECK(strstr(text, "key 103 down sym 0xff52") && strstr(text, "key 63 down sym 0xffc2") &&
		      strstr(text, "key 42 down sym 0xffe1"),
	      "the non-text keys' codes and keysyms:\n%s", text);

	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
	kf_loop_destroy(loop);
	return t_finish(dir, "input key log");
}
