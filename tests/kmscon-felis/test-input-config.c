/* tests/kmscon-felis/test-input-config.c: the configuration's keyboard settings reach the input glue, with
 * real xkbcommon: the xkb-* names and options, key repeat (delay and rate, 0 = off), a compose file, and the
 * shortcuts under other layouts and with the locks on; natural-scrolling turns the wheel round. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

#include "glue-harness.h"

/* kmscon's --xkb-model/--xkb-layout/--xkb-variant/--xkb-options, parsed by the config, reach the keymap:
 * de(nodeadkeys) types ^ at once (de alone: a dead key, nothing sent), ctrl:nocaps makes Caps+c a ^C, the
 * model selects symbols (chromebook: F1 is XF86Back). */
static void test_xkb_config(struct kf_loop *loop)
{
	struct app a = {0};
	struct grid_config gc = {.cols = 80, .rows = 24};
	struct kf_config cfg;
	struct kf_input_glue *g = NULL;
	char *argv[] = {"kmscon-felis", "--xkb-model=pc105", "--xkb-layout=de", "--xkb-variant=nodeadkeys",
			"--xkb-options=ctrl:nocaps", NULL};

	kf_config_init(&cfg);
	a.grid = grid_create(&gc, NULL, NULL);
	CHECK(kf_config_parse_argv(&cfg, 5, argv) == 0, "xkb options parse");
	CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "create with xkb names");
	if (g) {
		struct input *in = kf_input_glue_input(g);
		CHECK(!strcmp(input_keymap_name(in), "de(nodeadkeys)"), "keymap %s", input_keymap_name(in));
		key(in, KEY_GRAVE);
		CHECK(sent(&a, "^"), "de(nodeadkeys): ^ at once");
		key(in, KEY_Y);
		CHECK(sent(&a, "z"), "de: the Y key types z");
		with(in, KEY_CAPSLOCK, KEY_C);
		CHECK(sent(&a, "\003"), "ctrl:nocaps: Caps+c sends ^C");
		key(in, KEY_F1);
		CHECK(sent(&a, "\033OP"), "pc105: F1");
		kf_input_glue_destroy(g);
		g = NULL;
	}
	/* de without the variant; the chromebook model's symbols make F1 a Back key (no bytes). */
	char *argv2[] = {"kmscon-felis", "--xkb-variant=", "--xkb-model=chromebook", NULL};
	CHECK(kf_config_parse_argv(&cfg, 3, argv2) == 0, "xkb options parse");
	CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "create with de");
	if (g) {
		key(kf_input_glue_input(g), KEY_GRAVE);
		CHECK(a.n_out == 0, "de: ^ is a dead key (%zu bytes)", a.n_out);
		key(kf_input_glue_input(g), KEY_F1);
		CHECK(a.n_out == 0, "chromebook: F1 is not F1 (%zu bytes)", a.n_out);
	}
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
}

/* --xkb-repeat-delay and --xkb-repeat-rate reach the repeat: A held repeats after the delay, every rate ms. A delay
 * of 0 turns repeat off, as in kmscon (whose repeat timer a zero delay leaves disarmed), and as the man page says;
 * it gave the built-in 250 ms. */
static void test_repeat_config(struct kf_loop *loop)
{
	static const struct {
		const char *delay, *rate, *want;
	} cases[] = {
		{"--xkb-repeat-delay=400", "--xkb-repeat-rate=33", "aaa"},
		{"--xkb-repeat-delay=0", "--xkb-repeat-rate=33", "a"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct app a = {0};
		struct kf_config cfg;
		struct kf_input_glue *g = NULL;
		char *argv[] = {"kmscon-felis", (char *)cases[i].delay, (char *)cases[i].rate, NULL};

		kf_config_init(&cfg);
		CHECK(kf_config_parse_argv(&cfg, 3, argv) == 0, "%s parses", cases[i].delay);
		CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "create with %s", cases[i].delay);
		if (g) {
			struct input *in = kf_input_glue_input(g);
			input_inject_key(in, KEY_A, true, 1000000);
			input_timer_expired(in, 1399999);
			input_timer_expired(in, 1400000);
			input_timer_expired(in, 1433000);
			input_inject_key(in, KEY_A, false, 1450000);
			CHECK(sent(&a, cases[i].want), "A held 450 ms with %s %s", cases[i].delay, cases[i].rate);
		}
		kf_input_glue_destroy(g);
		kf_config_finish(&cfg);
	}
}

/* A glue on the de layout (dead_acute on the key left of Backspace) with a file of the given text, in dir, as the
 * value of option ("--xkb-compose-file", "--xkb-keymap": a keymap file wins over the layout); cfg (initialised
 * here) and a->grid are the caller's to finish. NULL when it cannot be made. */
static struct kf_input_glue *glue_with_file(struct kf_loop *loop, const char *dir, const char *option, const char *text,
					    struct app *a, struct kf_config *cfg)
{
	struct grid_config gc = {.cols = 80, .rows = 24};
	struct kf_input_glue *g = NULL;
	char path[256], opt[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/file%s", dir, option);
	snprintf(opt, sizeof(opt), "%s=%s", option, path);
	kf_config_init(cfg);
	a->grid = grid_create(&gc, NULL, NULL);
	f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	char *argv[] = {"kmscon-felis", "--xkb-layout=de", opt, NULL};
	CHECK(kf_config_parse_argv(cfg, 3, argv) == 0, "%s parses", option);
	CHECK(kf_input_glue_create(loop, cfg, &ops, a, &g) == 0, "create with %s", option);
	return g;
}

/* A compose sequence whose result is several code points (en_US.UTF-8's dead_acute J: J and U+0301 COMBINING ACUTE
 * ACCENT) types all of them, also under the kitty keyboard protocol (fish 4, neovim and helix ask for its flag 1):
 * there only the first, J, reached the application, which lost the accent. */
static void test_compose_several(struct kf_loop *loop, const char *dir)
{
	struct app a = {0};
	struct kf_config cfg;
	/* The longest result xkbcommon takes: 84 euro signs (252 bytes), typed whole, with ESC before under Alt. */
	char euros[300] = "\033", text[400];
	for (int i = 0; i < 84; i++)
		strcat(euros, "\xe2\x82\xac");
	snprintf(text, sizeof(text), "<dead_acute> <J> : \"J\xcc\x81\"\n<dead_acute> <K> : \"%s\"\n", euros + 1);
	struct kf_input_glue *g = glue_with_file(loop, dir, "--xkb-compose-file", text, &a, &cfg);
	if (g) {
		struct input *in = kf_input_glue_input(g);
		static const char *const modes[] = {"", "\033[>1u", "\033[=3u"};
		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			feed(&a, modes[i]);
			key(in, KEY_EQUAL);
			with(in, KEY_LEFTSHIFT, KEY_J);
			CHECK(sent(&a, "J\xcc\x81"), "dead_acute Shift+j types J and U+0301 (kitty flags '%s')",
			      modes[i] + (modes[i][0] != 0));
		}
		feed(&a, "\033[=0u");
		key(in, KEY_EQUAL);
		with(in, KEY_LEFTSHIFT, KEY_K);
		CHECK(sent(&a, euros + 1), "dead_acute Shift+k types 84 euro signs");
		key(in, KEY_EQUAL);
		input_inject_key(in, KEY_LEFTALT, true, 1000);
		with(in, KEY_LEFTSHIFT, KEY_K);
		input_inject_key(in, KEY_LEFTALT, false, 1000);
		CHECK(sent(&a, euros), "dead_acute Alt+Shift+k types ESC and 84 euro signs");
	}
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
}

/* A key that breaks a dead key's or Compose's sequence types nothing, as in X clients (libX11's compose filter
 * swallows it) and as input/ already did for a letter: a Backspace, an arrow, Return or Escape went to the
 * application as well, so that a dead key pressed by mistake and taken back with Backspace deleted the character
 * before it, and Return sent the line. Under the kitty protocol's event types the swallowed press has no
 * release sent either. The keys the terminal keeps (a VT switch) still act. */
static void test_compose_cancel(struct kf_loop *loop, const char *dir)
{
	struct app a = {0};
	struct kf_config cfg;
	struct kf_input_glue *g = glue_with_file(loop, dir, "--xkb-compose-file", "<dead_acute> <e> : \"\xc3\xa9\"\n", &a, &cfg);

	if (g) {
		struct input *in = kf_input_glue_input(g);
		static const struct {
			uint32_t code;
			const char *name, *alone;
		} keys[] = {
			{KEY_BACKSPACE, "Backspace", "\x7f"}, {KEY_LEFT, "Left", "\033[D"}, {KEY_ENTER, "Return", "\r"},
			{KEY_ESC, "Escape", "\033"},         {KEY_TAB, "Tab", "\t"},       {KEY_F5, "F5", "\033[15~"},
			{KEY_Q, "q", "q"},
		};
		static const char *const modes[] = {"", "\033[>3u"};
		for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			feed(&a, modes[m]);
			for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
				key(in, KEY_EQUAL);
				key(in, keys[i].code);
				CHECK(sent(&a, ""), "dead_acute then %s sends nothing (kitty flags '%s')", keys[i].name,
				      modes[m] + (modes[m][0] != 0));
				if (!modes[m][0]) {
					key(in, keys[i].code);
					CHECK(sent(&a, keys[i].alone), "%s after the cancelled sequence", keys[i].name);
				}
			}
			feed(&a, "\033[<u");
		}
		key(in, KEY_EQUAL);
		key(in, KEY_E);
		CHECK(sent(&a, "\xc3\xa9"), "dead_acute e still types e acute");
		/* Ctrl with a key is a command, never the end of a sequence: a dead key typed by mistake must not eat the
		 * Ctrl+C (or Ctrl+D) that follows, nor make Ctrl+E an e acute (GTK's compose leaves such keys alone
		 * too); the sequence is dropped, and the next e is a plain one. (Alt still composes: ESC and the
		 * result, test_compose_several.) */
		key(in, KEY_EQUAL);
		with(in, KEY_LEFTCTRL, KEY_C);
		CHECK(sent(&a, "\x03"), "dead_acute then Ctrl+C sends ^C");
		key(in, KEY_EQUAL);
		with(in, KEY_LEFTCTRL, KEY_E);
		key(in, KEY_E);
		CHECK(sent(&a, "\x05" "e"), "dead_acute then Ctrl+E sends ^E, and e is e again");
		key(in, KEY_EQUAL);
		input_inject_key(in, KEY_LEFTCTRL, true, 1);
		input_inject_key(in, KEY_LEFTALT, true, 1);
		key(in, KEY_F2);
		input_inject_key(in, KEY_LEFTALT, false, 1);
		input_inject_key(in, KEY_LEFTCTRL, false, 1);
		CHECK(a.vt == 2 && sent(&a, ""), "Ctrl+Alt+F2 after a dead key switches VT (%d), sends nothing", a.vt);
	}
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
}

/* A keymap level of several keysyms (a --xkb-keymap file's "{ U0915, U094D }") types all of them once, with
 * ESC before under Alt: it typed nothing, and then (once input/ gave the text) twice, the key's release typing
 * it again. */
static void test_several_keysyms(struct kf_loop *loop, const char *dir)
{
	struct app a = {0};
	struct kf_config cfg;
	struct kf_input_glue *g = NULL;
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	struct xkb_rule_names us = {.layout = "us"};
	struct xkb_keymap *km = ctx ? xkb_keymap_new_from_names(ctx, &us, 0) : NULL;
	char *text = km ? xkb_keymap_get_as_string(km, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
	char *key_a = text ? strstr(text, "key <AC01>") : NULL, *end = key_a ? strchr(key_a, '\n') : NULL;
	char *edited = end ? malloc(strlen(text) + 64) : NULL;

	CHECK(edited, "the us keymap as text");
	if (edited) {
		sprintf(edited, "%.*skey <AC01> { [ { U0915, U094D }, A ] };%s", (int)(key_a - text), text, end);
		g = glue_with_file(loop, dir, "--xkb-keymap", edited, &a, &cfg);
	}
	if (g) {
		struct input *in = kf_input_glue_input(g);
		static const char *const modes[] = {"", "\033[>1u", "\033[=3u"};
		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			feed(&a, modes[i]);
			key(in, KEY_A);
			CHECK(sent(&a, "\xe0\xa4\x95\xe0\xa5\x8d"), "KA VIRAMA typed once (kitty flags '%s')",
			      modes[i] + (modes[i][0] != 0));
		}
		feed(&a, "\033[=0u");
		with(in, KEY_LEFTALT, KEY_A);
		CHECK(sent(&a, "\033\xe0\xa4\x95\xe0\xa5\x8d"), "Alt: ESC before");
	}
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	if (edited)
		kf_config_finish(&cfg);
	free(edited);
	free(text);
	xkb_keymap_unref(km);
	xkb_context_unref(ctx);
}

/* A shortcut names a Latin keysym: under a layout of another script it is the key of that letter on a US keyboard, as
 * Ctrl+С sends ^C (a Cyrillic layout has no c to press: <Ctrl><Shift>c never matched). A Latin layout keeps its own
 * letters: on a German keyboard <Ctrl><Shift>z is the key marked Z, not the US Z key (de's Y). Caps Lock and Num Lock
 * on change nothing. */
static void test_grab_layouts(struct kf_loop *loop)
{
	static const struct {
		const char *layout;
		uint32_t code;
		bool locks, zooms;
		const char *what;
	} cases[] = {
		{"ru", KEY_C, false, true, "ru: Ctrl+Shift+С is <Ctrl><Shift>c"},
		{"ru", KEY_C, true, true, "ru: Ctrl+Shift+С with Caps Lock and Num Lock on"},
		{"ru", KEY_X, false, false, "ru: Ctrl+Shift+Ч is not <Ctrl><Shift>c"},
		{"de", KEY_C, true, true, "de: Ctrl+Shift+c with Caps Lock and Num Lock on"},
		{"de", KEY_Y, false, false, "de: Ctrl+Shift+z is not <Ctrl><Shift>y (the US key's letter)"},
		{"de", KEY_Z, false, true, "de: Ctrl+Shift+y is <Ctrl><Shift>y"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct app a = {0};
		struct kf_config cfg;
		struct kf_input_glue *g = NULL;
		char layout[32];
		snprintf(layout, sizeof(layout), "--xkb-layout=%s", cases[i].layout);
		char *argv[] = {"kmscon-felis", layout, NULL};

		kf_config_init(&cfg);
		CHECK(kf_config_parse_argv(&cfg, 2, argv) == 0 &&
			      kf_config_set(&cfg, "grab-zoom-in", "<Ctrl><Shift>c,<Ctrl><Shift>y") == 0,
		      "%s parses", layout);
		CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "create with %s", layout);
		if (g) {
			struct input *in = kf_input_glue_input(g);
			if (cases[i].locks) {
				key(in, KEY_CAPSLOCK);
				key(in, KEY_NUMLOCK);
			}
			input_inject_key(in, KEY_LEFTCTRL, true, 1);
			with(in, KEY_LEFTSHIFT, cases[i].code);
			input_inject_key(in, KEY_LEFTCTRL, false, 4);
			CHECK((a.zoom == 1) == cases[i].zooms, "%s (zoom %d)", cases[i].what, a.zoom);
		}
		kf_input_glue_destroy(g);
		kf_config_finish(&cfg);
	}
}

/* A message of input/ names the place in input/ that logged it, as every other line of the log names its own:
 * they all read "[input-glue.c:N]", the glue's log handler. */
static void test_log_origin(struct kf_loop *loop, const char *dir)
{
	struct app a = {0};
	struct grid_config gc = {.cols = 80, .rows = 24};
	struct kf_config cfg;
	struct kf_input_glue *g = NULL;
	char *argv[] = {"kmscon-felis", "--xkb-layout=no-such-layout", NULL};
	char path[256], text[4096] = "";

	snprintf(path, sizeof(path), "%s/stderr", dir);
	kf_config_init(&cfg);
	a.grid = grid_create(&gc, NULL, NULL);
	CHECK(kf_config_parse_argv(&cfg, 2, argv) == 0, "a bad layout parses");
	int saved = stderr_to(path);
	CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "create with a bad layout");
	stderr_back(saved, path, text, sizeof(text));
	const char *line = strstr(text, "using the 'us' layout");
	while (line && line > text && line[-1] != '\n')
		line--;
	CHECK(line && !strncmp(strstr(line, "[") ? strstr(line, "[") : "", "[keymap-load.c:", 15),
	      "the fallback's warning names keymap-load.c: %s", text);
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
}

/* kmscon's natural-scrolling (kmscon PR 381: the wheel's direction inverted) turns the wheel round wherever it
 * acts, so that the content follows the fingers: a step down (a touchpad's fingers moving down) scrolls the
 * view back into the history, is reported to an application in mouse mode as xterm's wheel up (button 4, and
 * the horizontal axis's 6 and 7 swapped), and is an Up arrow under DECSET 1007. Off (the default), a step down
 * is what test-input-glue.c and test-input-reports.c check: forward, button 5, a Down arrow. */
static void test_natural_scrolling(struct kf_loop *loop)
{
	struct app a = {0};
	struct grid_config gc = {.cols = 80, .rows = 24, .scrollback = 100};
	struct kf_config cfg;
	struct kf_input_glue *g = NULL;
	char *argv[] = {"kmscon-felis", "--natural-scrolling", NULL};
	char line[32];

	kf_config_init(&cfg);
	a.grid = grid_create(&gc, NULL, NULL);
	CHECK(kf_config_parse_argv(&cfg, 2, argv) == 0, "--natural-scrolling parses");
	CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "create with natural scrolling");
	if (g && a.grid) {
		struct input *in = kf_input_glue_input(g);
		kf_input_glue_set_geometry(g, 800, 480, 10, 20);
		for (int i = 0; i < 60; i++) {
			snprintf(line, sizeof(line), "line %d\r\n", i);
			feed(&a, line);
		}
		wheel(in, 2);
		CHECK(grid_view_offset(a.grid) == 6, "two steps down: 6 lines back (%d)", grid_view_offset(a.grid));
		wheel(in, -1);
		CHECK(grid_view_offset(a.grid) == 3, "a step up: 3 lines forward (%d)", grid_view_offset(a.grid));
		CHECK(a.n_out == 0, "nothing sent while scrolling the view (%zu bytes)", a.n_out);
		key(in, KEY_X);
		CHECK(sent(&a, "x"), "a key");
		feed(&a, "\033[?1000h\033[?1006h");
		point(in, 2, 1);
		wheel(in, 1);
		CHECK(sent(&a, "\033[<64;3;2M"), "a step down reported as wheel up");
		wheel(in, -2);
		CHECK(sent(&a, "\033[<65;3;2M\033[<65;3;2M"), "two steps up reported as wheel down");
		hwheel(in, 1);
		CHECK(sent(&a, "\033[<66;3;2M"), "a step right reported as wheel left");
		hwheel(in, -1);
		CHECK(sent(&a, "\033[<67;3;2M"), "a step left reported as wheel right");
		feed(&a, "\033[?1006l\033[?1000l\033[?1049h\033[?1007h");
		wheel(in, 1);
		CHECK(sent(&a, "\033[A\033[A\033[A"), "DECSET 1007: a step down is Up");
		wheel(in, -1);
		CHECK(sent(&a, "\033[B\033[B\033[B"), "DECSET 1007: a step up is Down");
	}
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
}

/* Wheel steps at the ends of int (what input_inject_pointer takes from any caller; devices are bounded in
 * input/scroll.c): as many as the largest bound step, in the right direction, with and without natural
 * scrolling. abs(INT_MIN), -INT_MIN and INT_MIN * 3 were undefined: in practice INT_MIN scrolled nothing
 * and was reported as nothing, and natural scrolling turned it into INT_MIN again. */
static void test_wheel_extremes(struct kf_loop *loop, bool natural)
{
	struct app a = {0};
	struct grid_config gc = {.cols = 80, .rows = 24, .scrollback = 300};
	struct kf_config cfg;
	struct kf_input_glue *g = NULL;
	char *argv[] = {"kmscon-felis", "--natural-scrolling", NULL};
	const int back = natural ? INT_MAX : INT_MIN, fwd = natural ? INT_MIN : INT_MAX;
	const char *nat = natural ? " (natural)" : "";
	char line[32];

	kf_config_init(&cfg);
	a.grid = grid_create(&gc, NULL, NULL);
	CHECK(kf_config_parse_argv(&cfg, natural ? 2 : 1, argv) == 0, "options parse");
	CHECK(kf_input_glue_create(loop, &cfg, &ops, &a, &g) == 0, "create");
	if (g && a.grid) {
		struct input *in = kf_input_glue_input(g);
		kf_input_glue_set_geometry(g, 800, 480, 10, 20);
		for (int i = 0; i < 250; i++) {
			snprintf(line, sizeof(line), "line %d\r\n", i);
			feed(&a, line);
		}
		wheel(in, back);
		CHECK(grid_view_offset(a.grid) == 32 * 3, "%d steps%s: 32 steps (96 lines) back, not %d", back, nat,
		      grid_view_offset(a.grid));
		wheel(in, -INT_MAX * (natural ? -1 : 1));
		CHECK(grid_view_offset(a.grid) == 2 * 32 * 3, "-INT_MAX steps%s: 96 lines more back, not %d", nat,
		      grid_view_offset(a.grid));
		wheel(in, fwd);
		CHECK(grid_view_offset(a.grid) == 32 * 3, "%d steps%s: 96 lines forward, at %d", fwd, nat,
		      grid_view_offset(a.grid));
		CHECK(a.n_out == 0, "nothing sent while scrolling the view%s (%zu bytes)", nat, a.n_out);
		feed(&a, "\033[?1000h\033[?1006h");
		point(in, 2, 1);
		wheel(in, back);
		hwheel(in, natural ? INT_MAX : INT_MIN);
		char want[512] = "";
		for (int i = 0; i < 16; i++)
			strcat(want, "\033[<64;3;2M");
		for (int i = 0; i < 16; i++)
			strcat(want, "\033[<66;3;2M");
		CHECK(sent(&a, want), "%d steps%s: 16 wheel-up and 16 wheel-left reports", back, nat);
		feed(&a, "\033[?1006l\033[?1000l\033[?1049h\033[?1007h");
		wheel(in, back);
		want[0] = 0;
		for (int i = 0; i < 64; i++)
			strcat(want, "\033[A");
		CHECK(sent(&a, want), "DECSET 1007, %d steps%s: 64 Up", back, nat);
	}
	kf_input_glue_destroy(g);
	grid_destroy(a.grid);
	kf_config_finish(&cfg);
}

int main(void)
{
	char dir[] = "/tmp/kf-glue-config-XXXXXX";
	struct kf_loop *loop = kf_loop_create();

	if (!loop || !mkdtemp(dir))
		return 1;
	setenv("KMSCON_FELIS_CLIPBOARD_DIR", dir, 1);
	setenv("XKB_DEFAULT_LAYOUT", "us", 1);
	test_xkb_config(loop);
	test_repeat_config(loop);
	test_compose_several(loop, dir);
	test_compose_cancel(loop, dir);
	test_several_keysyms(loop, dir);
	test_grab_layouts(loop);
	test_log_origin(loop, dir);
	test_natural_scrolling(loop);
	test_wheel_extremes(loop, false);
	test_wheel_extremes(loop, true);
	kf_loop_destroy(loop);
	return t_finish(dir, "input config");
}
