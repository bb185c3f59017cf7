/* kmscon-felis/config.c: the option table, the configuration file and the command line (see config.h); the
 * table read back (the options one by one, the file written, --help) is config-help.c.
 *
 * Names, meanings and defaults follow kmscon (src/kmscon_conf.c, kmscon.conf(5)) unless a comment says why not;
 * man/kmscon-felis.conf.5.scd lists the differences. */
#define LOG_TAG "config"
#include "kmscon-felis/config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grid/grid.h"
#include "kf-config.h"
#include "kmscon-felis/config-internal.h"
#include "kmscon-felis/log.h"

/* The type check: comparing a pointer to the field with a T * is a constraint violation (an error with
 * -Werror) when the field is not a T, so a table line cannot point at a field of the wrong type. */
#define OFF(field, T) (offsetof(struct kf_config, field) + 0 * sizeof(&((struct kf_config *)0)->field == (T *)0))

#define SECTION(title) {.name = title, .type = OPT_SECTION}
#define BOOL(n, s, f, d, h) {.name = n, .short_name = s, .type = OPT_BOOL, .offset = OFF(f, bool), .def = d, .help = h}
#define LEVEL(n, s, f, h)                                                                                  \
	{.name = n, .short_name = s, .type = OPT_BOOL, .flags = OPTF_LOG_LEVEL, .offset = OFF(f, bool),     \
	 .def = "off", .help = h}
#define CLI_BOOL(n, s, f, h)                                                                               \
	{.name = n, .short_name = s, .type = OPT_BOOL, .flags = OPTF_CLI_ONLY, .offset = OFF(f, bool),      \
	 .def = "off", .help = h}
#define UINT(n, f, d, lo, hi, a, h, ex)                                                                    \
	{.name = n, .type = OPT_UINT, .offset = OFF(f, unsigned int), .def = d, .min = lo, .max = hi,     \
	 .arg = a, .help = h, .example = ex}
#define BYTES(n, f, d, lo, hi, a, h, ex)                                                                   \
	{.name = n, .type = OPT_BYTES, .offset = OFF(f, size_t), .def = d, .min = lo, .max = hi, .arg = a, \
	 .help = h, .example = ex}
#define STR(n, s, f, d, a, h, ex)                                                                          \
	{.name = n, .short_name = s, .type = OPT_STRING, .offset = OFF(f, char *), .def = d, .arg = a,     \
	 .help = h, .example = ex}
/* A string that is a name or text, not a path (config-internal.h, OPTF_TEXT_*). */
#define STRF(fl, n, s, f, d, a, h, ex)                                                                     \
	{.name = n, .short_name = s, .type = OPT_STRING, .flags = fl, .offset = OFF(f, char *), .def = d,  \
	 .arg = a, .help = h, .example = ex}
#define CHOICE(n, f, T, c, d, h, ex)                                                                       \
	{.name = n, .type = OPT_CHOICE, .offset = OFF(f, T), .choices = c, .def = d, .arg = "NAME",        \
	 .help = h, .example = ex}
#define DIMS(n, f, fl, hi, d, a, h, ex)                                                                    \
	{.name = n, .type = OPT_DIMS, .flags = fl, .offset = OFF(f, struct kf_size), .max = hi, .def = d,  \
	 .arg = a, .help = h, .example = ex}
#define DEFAULT_CONFIGDIR KF_SYSCONFDIR "/kmscon-felis"
/* The headless grid's default size: the option table's default and check()'s test of "asked for" */
#define HEADLESS_COLS 80
#define HEADLESS_ROWS 24
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)
#define HEADLESS_SIZE STRINGIFY(HEADLESS_COLS) "x" STRINGIFY(HEADLESS_ROWS)
#define RGB(n, i, d)                                                                                       \
	{.name = "palette-" n, .type = OPT_RGB, .offset = OFF(palette_custom[i], struct kf_rgb), .def = d, \
	 .arg = "R,G,B", .help = "Colour " n " of the custom palette", .example = "1,2,3"}
#define GRAB(n, f, d, h, ex)                                                                               \
	{.name = n, .type = OPT_GRAB, .offset = OFF(f, struct kf_grab), .def = d, .arg = "GRAB", .help = h, \
	 .example = ex}
/* kmscon options that have no meaning here: accepted with a warning so a kmscon.conf still loads. */
#define IGNORED(n, hasarg) {.name = n, .type = hasarg ? OPT_STRING : OPT_BOOL, .flags = OPTF_IGNORED}

/* Sizes must fit enums: OPT_CHOICE stores an int. */
_Static_assert(sizeof(enum kf_backend) == sizeof(int), "enum size");
_Static_assert(sizeof(enum kf_palette) == sizeof(int), "enum size");
_Static_assert(sizeof(enum kf_rotation) == sizeof(int), "enum size");
_Static_assert(sizeof(enum kf_tristate) == sizeof(int), "enum size");
_Static_assert(sizeof(enum kf_bell_mode) == sizeof(int), "enum size");

static const struct opt_choice backends[] = {
	{"drm", KF_BACKEND_DRM},
	{"headless", KF_BACKEND_HEADLESS},
	{NULL, 0},
};

/* kmscon's engines map to ours: pango and freetype2 look fonts up by name, 8x16 and unifont are built in. */
static const struct opt_choice font_engines[] = {
	{"fontconfig", KF_FONT_ENGINE_FONTCONFIG}, {"psf", KF_FONT_ENGINE_PSF},
	{"builtin", KF_FONT_ENGINE_BUILTIN},	   {"pango", KF_FONT_ENGINE_FONTCONFIG},
	{"freetype2", KF_FONT_ENGINE_FONTCONFIG},  {"8x16", KF_FONT_ENGINE_BUILTIN},
	{"unifont", KF_FONT_ENGINE_BUILTIN},	   {NULL, 0},
};

/* kmscon's names (normal, right, upside-down, left) and xrandr's "inverted", written back first. */
static const struct opt_choice rotations[] = {
	{"normal", KF_ROTATE_NORMAL},	  {"right", KF_ROTATE_RIGHT},	       {"inverted", KF_ROTATE_INVERTED},
	{"left", KF_ROTATE_LEFT},	  {"upside-down", KF_ROTATE_INVERTED}, {NULL, 0},
};

/* kmscon's bell was a boolean (on: its terminal's beep): on is audible, off none (OPTF_BOOL_FORMS). */
static const struct opt_choice bells[] = {
	{"audible", KF_BELL_AUDIBLE}, {"visual", KF_BELL_VISUAL}, {"none", KF_BELL_NONE},
	{"on", KF_BELL_AUDIBLE},      {"off", KF_BELL_NONE},      {NULL, 0},
};

static const struct opt_choice palettes[] = {
	{"default", KF_PALETTE_DEFAULT},
	{"solarized", KF_PALETTE_SOLARIZED},
	{"solarized-black", KF_PALETTE_SOLARIZED_BLACK},
	{"solarized-white", KF_PALETTE_SOLARIZED_WHITE},
	{"soft-black", KF_PALETTE_SOFT_BLACK},
	{"base16-dark", KF_PALETTE_BASE16_DARK},
	{"base16-light", KF_PALETTE_BASE16_LIGHT},
	{"nord", KF_PALETTE_NORD},
	{"vga", KF_PALETTE_VGA},
	{"custom", KF_PALETTE_CUSTOM},
	{"legacy", KF_PALETTE_DEFAULT},
	{NULL, 0},
};

/* THE option table: one line per option. --help prints it in this order. */
const struct opt kf_opts[] = {
	SECTION("General"),
	CLI_BOOL("help", 'h', help, "Print this help and exit"),
	CLI_BOOL("version", 'V', version, "Print the version and exit"),
	CLI_BOOL("check-config", 0, check_config,
		 "Read the command line and the configuration file as a start does, say every problem, then exit: 0 "
		 "without errors, 78 with (no device is opened, nothing is run)"),
	LEVEL("verbose", 'v', verbose, "Log informational messages"),
	LEVEL("debug", 0, debug, "Log debug messages (implies --verbose)"),
	LEVEL("silent", 0, silent, "Log errors only"),
	{.name = "configdir", .short_name = 'c', .type = OPT_STRING, .flags = OPTF_CLI_ONLY,
	 .offset = OFF(configdir, char *), .def = DEFAULT_CONFIGDIR, .arg = "DIR",
	 .help = "Read kmscon-felis.conf from DIR"},

	SECTION("Backend"),
	CHOICE("backend", backend, enum kf_backend, backends, "drm",
	       "Output: drm (the console) or headless (no display or input, for tests)", "headless"),
	DIMS("size", size, 0, GRID_MAX_DIM, HEADLESS_SIZE, "COLSxROWS", "Grid size of the headless backend",
	     "132x43"),
	STR("dump-screen", 0, dump_screen, "", "FILE",
	    "Headless: write the final screen to FILE in the replay text format", "/tmp/screen.txt"),
	STR("input-fifo", 0, input_fifo, "", "PATH",
	    "Headless, testing aid: bytes written to the FIFO at PATH are typed as keystrokes", "/tmp/keys"),

	SECTION("Session"),
	{.name = "login", .short_name = 'l', .type = OPT_LOGIN, .def = "/bin/login -p",
	 .help = "Run the program after '--' (all remaining arguments) instead of /bin/login -p",
	 .example = "/usr/bin/app --kiosk \"two words\""},
	BOOL("oneshot", 0, oneshot, "off", "Exit with the program's status when it exits (no respawn)"),
	STRF(OPTF_TEXT_NAME, "term", 't', term, "xterm-256color", "TERM", "TERM for the program", "linux"),
	BOOL("reset-env", 0, reset_env, "on", "Start the program with a clean environment"),
	UINT("sb-size", sb_size, "10000", 0, 1000000, "LINES", "Scrollback size in lines", "500"),
	BYTES("write-queue-size", write_queue_size, "4M", 4096, 1ull << 30, "BYTES",
	      "Bytes queued towards the program (keys, pastes, replies) while it does not read", "1M"),
	BOOL("clipboard-read", 0, clipboard_read, "off",
	     "Programs may read the clipboard (OSC 52 queries); off: such queries get no answer"),
	{.name = "issue", .type = OPT_BOOL, .flags = OPTF_AUTO, .offset = OFF(issue, enum kf_tristate),
	 .def = "auto", .arg = "WHEN",
	 .help = "Show /etc/issue before the program, as agetty: on, off or auto (only before the default login)"},
	STR("issue-path", 0, issue_path, "", "PATHS",
	    "Issue files and directories (*.issue), colon-separated (default: agetty's /etc/issue and "
	    "/etc/issue.d, else /run's, else /usr/lib's)",
	    "/etc/issue:/etc/issue.d"),
	/* Audible by default, as the kernel's console that we replace (kmscon: off). */
	{.name = "bell", .type = OPT_CHOICE, .flags = OPTF_BOOL_FORMS, .offset = OFF(bell, enum kf_bell_mode),
	 .choices = bells, .def = "audible", .arg = "MODE",
	 .help = "What BEL does: audible (the console's tone), visual (the screen flashes) or none; --bell alone "
		 "is audible, --no-bell none",
	 .example = "visual"},

	SECTION("Seat"),
	{.name = "vt", .type = OPT_VT, .offset = OFF(vt, int), .def = "auto", .arg = "VT",
	 .help = "VT to run on: auto, N, ttyN or /dev/ttyN", .example = "tty3"},
	/* Two choices, as getty makes the first: a unit on a VT that is not in front must not pull the screen to it,
	 * yet keep Ctrl+Alt+Fn working (kmscon-felis(1), SYSTEMD). */
	BOOL("activate-vt", 0, activate_vt, "on",
	     "Switch the screen to the VT at start; off: wait until someone switches to it (the unit)"),
	BOOL("switchvt", 0, switchvt, "on", "Let Ctrl+Alt+Fn switch VTs; off: they do nothing (kiosk)"),
	STRF(OPTF_TEXT_NAME, "seat", 0, seat, "", "SEAT",
	    "Seat to run on: an error unless it is the one libseat opens (the session's; seat0 for a service)",
	    "seat1"),

	SECTION("Input"),
	STRF(OPTF_TEXT_NAME, "xkb-model", 0, xkb_model, "", "MODEL", "XKB model (default: system keyboard settings)",
	     "pc105"),
	STRF(OPTF_TEXT_NAME, "xkb-layout", 0, xkb_layout, "", "LAYOUT", "XKB layout", "de"),
	STRF(OPTF_TEXT_NAME, "xkb-variant", 0, xkb_variant, "", "VARIANT", "XKB variant", "nodeadkeys"),
	STRF(OPTF_TEXT_NAME, "xkb-options", 0, xkb_options, "", "OPTIONS", "XKB options", "ctrl:nocaps"),
	STR("xkb-keymap", 0, xkb_keymap, "", "FILE", "Load this XKB keymap file instead", "/etc/my.xkb"),
	STR("xkb-compose-file", 0, xkb_compose_file, "", "FILE", "Compose file instead of the locale's",
	    "/etc/XCompose"),
	UINT("xkb-repeat-delay", xkb_repeat_delay, "250", 0, 10000, "MS",
	     "Delay before key repeat in ms, 0 for none", "400"),
	UINT("xkb-repeat-rate", xkb_repeat_rate, "50", 1, 10000, "MS", "Time between two key repeats in ms",
	     "33"),
	BOOL("mouse", 0, mouse, "on", "Pointer, selection and mouse reporting"),
	BOOL("natural-scrolling", 0, natural_scrolling, "off",
	     "Wheel and touchpad scrolling inverted: the content follows the fingers"),
	BOOL("backspace-delete", 0, backspace_delete, "on", "Backspace sends DEL (off: ^H)"),

	SECTION("Keyboard shortcuts"),
	GRAB("grab-scroll-up", grab_scroll_up, "<Shift>Up", "Scroll up one line", "<Ctrl><Shift>Up"),
	GRAB("grab-scroll-down", grab_scroll_down, "<Shift>Down", "Scroll down one line", "<Alt>Down"),
	GRAB("grab-page-up", grab_page_up, "<Shift>Prior", "Scroll up one page", "<Logo>Prior"),
	GRAB("grab-page-down", grab_page_down, "<Shift>Next", "Scroll down one page", ""),
	GRAB("grab-zoom-in", grab_zoom_in, "<Ctrl>plus,<Ctrl>equal", "Larger font", "<Ctrl><Shift>plus"),
	GRAB("grab-zoom-out", grab_zoom_out, "<Ctrl>minus", "Smaller font", "<Ctrl>KP_Subtract"),
	GRAB("grab-zoom-reset", grab_zoom_reset, "<Ctrl>0", "Font size back to --font-size", "<Ctrl>KP_0"),
	GRAB("grab-session-next", grab_session_next, "<Ctrl><Logo>Right", "Switch to the next VT",
	     "<Ctrl><Alt>Right"),
	GRAB("grab-session-prev", grab_session_prev, "<Ctrl><Logo>Left", "Switch to the previous VT",
	     "<Ctrl><Alt>Left"),
	GRAB("grab-paste", grab_paste, "<Shift>Insert", "Paste the selection", "<Ctrl><Shift>v"),
	GRAB("grab-rotate-cw", grab_rotate_cw, "<Logo>plus,<Logo>equal", "Turn the display a quarter clockwise",
	     "<Ctrl><Logo>Right"),
	GRAB("grab-rotate-ccw", grab_rotate_ccw, "<Logo>minus", "Turn the display a quarter counter-clockwise",
	     "<Ctrl><Logo>Left"),

	SECTION("Display"),
	/* kmscon's drm option: on uses DRM when a card drives a display (and a framebuffer device otherwise), off
	 * only a framebuffer device. */
	BOOL("drm", 0, drm, "on",
	     "Use DRM/KMS when a card drives a display, else a framebuffer device (/dev/fbN); off: the framebuffer "
	     "device only"),
	DIMS("mode", mode, OPTF_ZERO_OK, 100000, "0x0", "WxH", "Display mode, 0x0 for the preferred mode",
	     "1280x720"),
	/* Off, unlike kmscon (on): the preferred mode unless asked otherwise, as the issue specifies. */
	BOOL("use-original-mode", 0, use_original_mode, "off",
	     "Keep the mode each display has at start (fbcon's, the firmware's) instead of its preferred mode; "
	     "mode= wins over it"),
	UINT("dpms-timeout", dpms_timeout, "600", 0, 1u << 30, "SECONDS",
	     "Blank after this many seconds without input or output, 0 for never", "0"),
	UINT("display-wait", display_wait, "0", 0, 1u << 30, "SECONDS",
	     "Without any display shown this many seconds after getting the VT, exit with status 69; 0 waits", "20"),
	CHOICE("rotate", rotate, enum kf_rotation, rotations, "normal",
	       "Turn the picture: normal, right (90 degrees clockwise), inverted (or upside-down) or left", "right"),

	SECTION("Font"),
	STRF(OPTF_TEXT_UTF8, "font-name", 0, font_name, "monospace", "NAME", "Font name (a fontconfig pattern)",
	    "DejaVu Sans Mono"),
	UINT("font-size", font_size, "16", 4, 400, "PX", "Font size in pixels", "24"),
	CHOICE("font-engine", font_engine, enum kf_font_engine, font_engines, "fontconfig",
	       "Font engine: fontconfig, psf or builtin", "psf"),
	STR("font-file", 0, font_file, "", "FILE", "Font file: PSF for --font-engine=psf, any for fontconfig",
	    "/usr/share/consolefonts/Lat15-Terminus16.psf.gz"),

	SECTION("Palette"),
	CHOICE("palette", palette, enum kf_palette, palettes, "default",
	       "Palette: default, solarized, solarized-black, solarized-white, soft-black, base16-dark, "
	       "base16-light, nord, vga or custom (the --palette-* colours)",
	       "solarized"),
	RGB("black", KF_COLOR_BLACK, "0,0,0"),
	RGB("red", KF_COLOR_RED, "205,0,0"),
	RGB("green", KF_COLOR_GREEN, "0,205,0"),
	RGB("yellow", KF_COLOR_YELLOW, "205,205,0"),
	RGB("blue", KF_COLOR_BLUE, "0,0,238"),
	RGB("magenta", KF_COLOR_MAGENTA, "205,0,205"),
	RGB("cyan", KF_COLOR_CYAN, "0,205,205"),
	RGB("light-grey", KF_COLOR_LIGHT_GREY, "229,229,229"),
	RGB("dark-grey", KF_COLOR_DARK_GREY, "127,127,127"),
	RGB("light-red", KF_COLOR_LIGHT_RED, "255,0,0"),
	RGB("light-green", KF_COLOR_LIGHT_GREEN, "0,255,0"),
	RGB("light-yellow", KF_COLOR_LIGHT_YELLOW, "255,255,0"),
	RGB("light-blue", KF_COLOR_LIGHT_BLUE, "92,92,255"),
	RGB("light-magenta", KF_COLOR_LIGHT_MAGENTA, "255,0,255"),
	RGB("light-cyan", KF_COLOR_LIGHT_CYAN, "0,255,255"),
	RGB("white", KF_COLOR_WHITE, "255,255,255"),
	RGB("foreground", KF_COLOR_FOREGROUND, "229,229,229"),
	RGB("background", KF_COLOR_BACKGROUND, "0,0,0"),

	/* kmscon's options without a meaning here (one process per VT, no GL, no sessions inside). */
	IGNORED("listen", 0), IGNORED("seats", 1), IGNORED("libseat", 0), IGNORED("session-max", 1),
	IGNORED("session-control", 0), IGNORED("terminal-session", 0), IGNORED("soft-cursor", 0),
	IGNORED("grab-session-dummy", 1),
	IGNORED("grab-session-close", 1), IGNORED("grab-terminal-new", 1), IGNORED("grab-reboot", 1),
	IGNORED("hwaccel", 0), IGNORED("gpus", 1), IGNORED("render-engine", 1),
	IGNORED("multi-monitor", 1), IGNORED("font-dpi", 1), IGNORED("render-timing", 0),
};
const size_t kf_opts_len = sizeof(kf_opts) / sizeof(kf_opts[0]);

static const struct opt *find(const char *name, size_t len)
{
	for (size_t i = 0; i < kf_opts_len; i++) {
		const struct opt *o = &kf_opts[i];
		if (o->type != OPT_SECTION && strlen(o->name) == len && !memcmp(o->name, name, len))
			return o;
	}
	return NULL;
}

int kf_config_init(struct kf_config *cfg)
{
	char why[512];
	memset(cfg, 0, sizeof(*cfg));
	for (size_t i = 0; i < kf_opts_len; i++) {
		const struct opt *o = &kf_opts[i];
		if (!kf_opt_is_option(o))
			continue;
		int ret = kf_opt_parse(o, cfg, o->def, why, sizeof(why));
		if (ret < 0) {
			/* Only ENOMEM can fail here: tests/config/ parses every default. */
			if (ret != -ENOMEM)
				log_err("bad built-in default for %s: %s", o->name, why);
			kf_config_finish(cfg);
			return ret;
		}
	}
	cfg->login_custom = false;
	return 0;
}

void kf_config_finish(struct kf_config *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < kf_opts_len; i++)
		if (kf_opt_is_option(&kf_opts[i]))
			kf_opt_free(&kf_opts[i], cfg);
	memset(cfg, 0, sizeof(*cfg));
}

/* Errors and warnings about the file kf_config_parse_text() is reading: the first FILE_DIAG_MAX are logged, the
 * rest counted in one line at its end. A file may have 1 MiB of bad lines, 262 000 of them, logged at start and
 * again on every reload (SIGHUP). */
#define FILE_DIAG_MAX 20
static unsigned int file_diags;
/* The line that last set each option (by index in kf_opts) in the file being read, or 0; NULL outside
 * kf_config_parse_text (or when it could not be allocated: then repeats go unsaid). */
static unsigned int *file_set_line;

/* Whether to log a diagnostic about line (0: the command line, always logged). */
static bool diag(unsigned int line)
{
	return !line || ++file_diags <= FILE_DIAG_MAX;
}

/* Applies "key" / "key=value" / "no-key" from source name:line (line 0: the command line). */
static int set_key(struct kf_config *cfg, const char *where, unsigned int line, const char *key, size_t klen,
		   const char *value, bool quiet)
{
	char why[768];
	const struct opt *o = find(key, klen);
	bool negate = false;
	if (!o && klen > 3 && !memcmp(key, "no-", 3)) {
		o = find(key + 3, klen - 3);
		negate = o && kf_opt_negatable(o);
		/* A file's no-login or no-sb-size was an unknown key, a warning: the start went on with the key as
		 * it was (no-login ran /bin/login), where --no-login is an error. A command-line option and a kmscon
		 * key we ignore warn below as they do without no-. */
		if (o && !negate && !(o->flags & (OPTF_CLI_ONLY | OPTF_IGNORED))) {
			char buf[256];
			const char *form = kf_opt_form(o, buf, sizeof(buf));
			if (!line)
				/* "unknown option '--no-sb-size'" left the user to find that sb-size is one */
				log_err("%s: --%.*s: --%s takes a value, it has no --no- form (expected --%s=%s)",
					where, (int)klen, key, o->name, o->name, form);
			else if (diag(line))
				log_err("%s:%u: %.*s: %s takes a value, it has no no- form (expected %s=%s)", where,
					line, (int)klen, key, o->name, o->name, form);
			return -EINVAL;
		}
		if (!negate && !(line && o))
			o = NULL;
	}
	const char *dash = line ? "" : "--";
	/* "file:line" in a file, the bare source name on the command line (line 0 is no line). */
	char at[512];
	if (line)
		snprintf(at, sizeof(at), "%s:%u", where, line);
	else
		snprintf(at, sizeof(at), "%s", where);
	if (!o) {
		if (line) {
			if (diag(line))
				log_warn("%s:%u: unknown key '%.*s%s', ignored", where, line, kf_quote_len(key, klen),
					 key, kf_quote_more(klen));
			return 0;
		}
		/* quoted as a file's line is: a line of kilobytes lost the message's end to the log's limit */
		log_err("%s: unknown option '--%.*s%s' (see --help)", where, kf_quote_len(key, klen), key,
			kf_quote_more(klen));
		return -EINVAL;
	}
	if (o->flags & OPTF_IGNORED) {
		if (!quiet && diag(line))
			log_warn("%s: kmscon option '%.*s' has no effect in kmscon-felis, ignored", at, (int)klen,
				 key);
		return 0;
	}
	if (line && (o->flags & OPTF_CLI_ONLY)) {
		if (diag(line))
			log_warn("%s:%u: '%s' is a command-line option, ignored in a file", where, line, o->name);
		return 0;
	}
	/* --help and --version are actions: --help=off started the console where a script meant the help. */
	if (!line && (o->flags & OPTF_CLI_ONLY) && o->type == OPT_BOOL && value) {
		log_err("%s: --%s takes no value (expected --%s)", at, o->name, o->name);
		return -EINVAL;
	}
	if (negate && value) {
		if (diag(line))
			log_err("%s: %s%.*s takes no value (expected %s%.*s or %s%s=off)", at, dash, (int)klen, key,
				dash, (int)klen, key, dash, o->name);
		return -EINVAL;
	}
	if (!line && (o->flags & OPTF_LOG_LEVEL) && !cfg->log_level_cli) {
		/* The three make one level (apply_log_level ranks them), so the file's would outrank the command
		 * line's: verbose in the file and --silent logged informational messages. The command line's first
		 * one drops what the file said; among themselves, the command line's rank as usual. */
		cfg->verbose = cfg->debug = cfg->silent = false;
		cfg->log_level_cli = true;
	}
	int ret = kf_opt_parse(o, cfg, negate ? "off" : value, why, sizeof(why));
	if (!ret && line && file_set_line) {
		/* The last one wins, as before, but said: a file edited by hand over years had font-size twice,
		 * and the first one, the one the user kept changing, did nothing. */
		unsigned int *prev = &file_set_line[o - kf_opts];
		if (*prev && diag(line))
			log_warn("%s:%u: '%s' set again (the value of line %u is replaced)", where, line, o->name,
				 *prev);
		*prev = line;
	}
	if (ret == -EINVAL && diag(line)) {
		if (line)
			log_err("%s:%u: %s: %s", where, line, o->name, why);
		else
			log_err("%s: --%s: %s", where, o->name, why);
	}
	return ret;
}

int kf_config_set(struct kf_config *cfg, const char *key, const char *value)
{
	file_diags = 0; /* (its line 1 is no file's: never the cap of one read before) */
	return set_key(cfg, "kf_config_set", 1, key, strlen(key), value, false);
}

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

/* One line (NUL-terminated, modified in place). Returns 0, -EINVAL (logged) or -ENOMEM. */
static int parse_line(struct kf_config *cfg, const char *name, unsigned int ln, char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t klen = 0;
	while (key_char(s[klen]))
		klen++;
	char *v = s + klen, *value = NULL;
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v == '=') {
		value = v + 1;
		while (*value == ' ' || *value == '\t')
			value++;
	}
	const struct opt *o = find(s, klen);
	bool shell = o && o->type == OPT_LOGIN;
	kf_opt_cut_comment(s, value, shell);
	size_t len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		s[--len] = '\0';
	if (!len)
		return 0;
	if (klen == 0 || (*v && *v != '=')) {
		if (diag(ln))
			log_err("%s:%u: malformed line '%.*s%s' (expected key=value, key, no-key or a # comment)",
				name, ln, kf_quote_len(s, len), s, kf_quote_more(len));
		return -EINVAL;
	}
	if (value && *value == '"' && !shell && !kf_opt_unquote(value)) {
		if (diag(ln))
			log_err("%s:%u: malformed line: unterminated or misplaced quote (expected key=\"value\")",
				name, ln);
		return -EINVAL;
	}
	return set_key(cfg, name, ln, s, klen, value, false);
}

int kf_config_parse_text(struct kf_config *cfg, const char *name, const char *text, size_t len)
{
	int ret = 0;
	unsigned int ln = 0;
	size_t pos = 0;
	char *line = malloc(len + 1);
	if (!line)
		return -ENOMEM;
	file_diags = 0;
	file_set_line = calloc(kf_opts_len, sizeof(*file_set_line));
	/* A byte order mark at the start (editors on Windows write one) is no part of the first line, as systemd
	 * skips it: the line was malformed, and looked right in its error. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3;
	while (pos < len && ret != -ENOMEM) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		ln++;
		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (strlen(line) != n) {
			if (diag(ln))
				log_err("%s:%u: malformed line: contains a NUL byte (expected text)", name, ln);
			ret = -EINVAL;
		} else {
			int r = parse_line(cfg, name, ln, line);
			/* Keep reading after an error so every bad line is reported at once (up to FILE_DIAG_MAX). */
			if (r < 0)
				ret = r;
		}
		pos += n + 1;
	}
	free(line);
	free(file_set_line);
	file_set_line = NULL;
	/* (an error when the file has one: at --silent a file of warnings says nothing) */
	if (file_diags > FILE_DIAG_MAX)
		kf_log_msg(ret < 0 ? KF_LOG_ERR : KF_LOG_WARN, LOG_TAG, __FILE__, __LINE__,
			   "%s: %u more errors and warnings not shown", name, file_diags - FILE_DIAG_MAX);
	return ret;
}

static int set_login_argv(struct kf_config *cfg, int argc, char **argv)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		v[i] = strdup(argv[i]);
		if (!v[i]) {
			for (int j = 0; j < i; j++)
				free(v[j]);
			free(v);
			return -ENOMEM;
		}
	}
	for (const struct opt *o = kf_opts; o < kf_opts + kf_opts_len; o++)
		if (o->type == OPT_LOGIN)
			kf_opt_free(o, cfg);
	cfg->login_argv = v;
	cfg->login_custom = true;
	return 0;
}

static const char *const CLI = "command line";

/* Long option at argv[*i] (without its "--"); may consume the next argument as its value. */
static int parse_long(struct kf_config *cfg, int argc, char **argv, int *i, bool quiet, bool *login)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t klen = eq ? (size_t)(eq - name) : strlen(name);
	const struct opt *o = find(name, klen);
	if (!o && klen > 3 && !memcmp(name, "no-", 3)) {
		const struct opt *b = find(name + 3, klen - 3);
		if (b && kf_opt_negatable(b))
			o = b;
	}
	const char *value = eq ? eq + 1 : NULL;
	if (o && o->type == OPT_LOGIN && !eq) {
		*login = true;
		return 0;
	}
	/* --key alone of a choice with boolean forms, or of issue (auto, on or off): the next argument is its
	 * value unless it is an option (or nothing follows), as a word there would otherwise be an error
	 * ("--issue off" was one, although kmscon-felis(1) writes --issue=auto|on|off); --no-key never takes
	 * one. */
	if (o && (o->flags & (OPTF_BOOL_FORMS | OPTF_AUTO)) && !eq) {
		bool negated = strlen(o->name) != klen; /* found as no-<name> */
		if (negated || *i + 1 >= argc || argv[*i + 1][0] == '-')
			return set_key(cfg, CLI, 0, name, klen, NULL, quiet);
		value = argv[++*i];
	} else if (o && o->type != OPT_BOOL && o->type != OPT_LOGIN && !eq) {
		if (*i + 1 >= argc) {
			char form[256];
			log_err("%s: --%s needs a value (expected --%s=%s)", CLI, o->name, o->name,
				kf_opt_form(o, form, sizeof(form)));
			return -EINVAL;
		}
		value = argv[++*i];
	}
	return set_key(cfg, CLI, 0, name, klen, value, quiet);
}

/* Short options at argv[*i], grouped as getopt groups them (kmscon's parser): "-vh" is -v -h, and a letter that
 * takes a value ends the group, with the rest of the group ("-tlinux") or else the next argument as its value. */
static int parse_short(struct kf_config *cfg, int argc, char **argv, int *i, bool quiet, bool *login)
{
	const char *a = argv[*i];
	for (const char *p = a + 1; *p; p++) {
		const struct opt *o = NULL;
		for (size_t k = 0; k < kf_opts_len && !o; k++)
			if (kf_opts[k].short_name && kf_opts[k].short_name == *p)
				o = &kf_opts[k];
		if (!o) {
			if (a[2])
				log_err("%s: unknown option '-%c' in '%.*s%s' (see --help)", CLI, *p,
					kf_quote_len(a, strlen(a)), a, kf_quote_more(strlen(a)));
			else
				log_err("%s: unknown option '%s' (see --help)", CLI, a);
			return -EINVAL;
		}
		if (o->type == OPT_LOGIN) {
			*login = true;
			continue;
		}
		if (o->type == OPT_BOOL) {
			int ret = set_key(cfg, CLI, 0, o->name, strlen(o->name), NULL, quiet);
			if (ret < 0)
				return ret;
			continue;
		}
		const char *value = p + 1;
		if (!*value) {
			if (*i + 1 >= argc) {
				log_err("%s: -%c needs a value", CLI, *p);
				return -EINVAL;
			}
			value = argv[++*i];
		}
		return set_key(cfg, CLI, 0, o->name, strlen(o->name), value, quiet);
	}
	return 0;
}

static int parse_argv(struct kf_config *cfg, int argc, char **argv, bool quiet)
{
	bool login = false, have_argv = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int ret;
		if (!strcmp(a, "--")) {
			if (i + 1 >= argc) {
				log_err("%s: nothing after '--' (expected -- PROGRAM [ARGS...])", CLI);
				return -EINVAL;
			}
			if (!argv[i + 1][0]) {
				log_err("%s: empty program name after '--' (expected -- PROGRAM [ARGS...])", CLI);
				return -EINVAL;
			}
			ret = set_login_argv(cfg, argc - i - 1, argv + i + 1);
			if (ret < 0)
				return ret;
			have_argv = true;
			break;
		} else if (!strncmp(a, "--", 2)) {
			ret = parse_long(cfg, argc, argv, &i, quiet, &login);
		} else if (a[0] == '-' && a[1]) {
			ret = parse_short(cfg, argc, argv, &i, quiet, &login);
		} else {
			log_err("%s: unexpected argument '%.*s%s' (a program to run goes after --login --)", CLI,
				kf_quote_len(a, strlen(a)), a, kf_quote_more(strlen(a)));
			ret = -EINVAL;
		}
		if (ret < 0)
			return ret;
	}
	if (login && !have_argv) {
		log_err("%s: --login needs the program after '--' (expected --login -- PROGRAM [ARGS...])",
			CLI);
		return -EINVAL;
	}
	return 0;
}

int kf_config_parse_argv(struct kf_config *cfg, int argc, char **argv)
{
	return parse_argv(cfg, argc, argv, false);
}

bool kf_config_show_issue(const struct kf_config *cfg)
{
	return cfg->issue == KF_AUTO ? !cfg->login_custom : cfg->issue == KF_ON;
}

/* Combinations the table cannot express. */
static int check(const struct kf_config *cfg)
{
	if (cfg->font_engine == KF_FONT_ENGINE_PSF && !cfg->font_file) {
		log_err("configuration: font-engine=psf needs font-file=FILE (expected a PSF1/PSF2 file)");
		return -EINVAL;
	}
	if (cfg->dump_screen && cfg->backend != KF_BACKEND_HEADLESS)
		log_warn("configuration: dump-screen only works with backend=headless, ignored");
	if (cfg->input_fifo && cfg->backend != KF_BACKEND_HEADLESS)
		log_warn("configuration: input-fifo only works with backend=headless, ignored");
	if (cfg->rotate != KF_ROTATE_NORMAL && cfg->backend != KF_BACKEND_DRM)
		log_warn("configuration: rotate only works with backend=drm, ignored");
	if (cfg->display_wait && cfg->backend != KF_BACKEND_DRM)
		log_warn("configuration: display-wait only works with backend=drm, ignored");
	if (cfg->use_original_mode && cfg->backend != KF_BACKEND_DRM)
		log_warn("configuration: use-original-mode only works with backend=drm, ignored");
	/* Both asked for, maybe one in the file and one on the command line: the explicit mode is the stronger
	 * wish. Not an error; said so that the mode shown is no surprise. */
	else if (cfg->use_original_mode && cfg->mode.w)
		log_notice("configuration: use-original-mode has no effect with mode=%ux%u (an explicit mode wins)",
			   cfg->mode.w, cfg->mode.h);
	/* (the table's default is what every start has: only another size was asked for) */
	if ((cfg->size.w != HEADLESS_COLS || cfg->size.h != HEADLESS_ROWS) && cfg->backend != KF_BACKEND_HEADLESS)
		log_warn("configuration: size only works with backend=headless, ignored (a display's grid fills "
			 "the display: mode= and font-size= choose it)");
	return 0;
}

static void apply_log_level(const struct kf_config *cfg)
{
	if (cfg->debug)
		kf_log_set_level(KF_LOG_DEBUG);
	else if (cfg->verbose)
		kf_log_set_level(KF_LOG_INFO);
	else if (cfg->silent)
		kf_log_set_level(KF_LOG_ERR);
	else
		kf_log_set_level(KF_LOG_NOTICE);
}

void kf_config_apply_log_level(const struct kf_config *cfg)
{
	apply_log_level(cfg);
}

/* reload: kf_config_reload's read, which says a missing file only when it was there before (once). */
static int parse_all(struct kf_config *cfg, int argc, char **argv, bool reload)
{
	struct kf_config cli;
	char *path = NULL;
	int ret = kf_config_init(cfg);
	if (ret < 0)
		return ret;
	/* First pass: validate the command line and learn --configdir, --help and the log level before the
	 * file; the second pass below applies it again over the file so the command line wins. */
	ret = kf_config_init(&cli);
	if (ret < 0)
		return ret;
	ret = parse_argv(&cli, argc, argv, false);
	if (ret < 0)
		goto out;
	/* An empty string value is unset, and an unset directory read ./kmscon-felis.conf from whatever the
	 * current directory happened to be ("/" for a service). */
	if (!cli.configdir) {
		log_err("%s: --configdir: empty directory (expected --configdir=DIR)", CLI);
		ret = -EINVAL;
		goto out;
	}
	if (cli.help || cli.version) {
		errno = 0;
		if (cli.help)
			kf_config_print_help(stdout, argc > 0 ? argv[0] : "kmscon-felis");
		else
			printf("kmscon-felis %s\n", KF_VERSION);
		ret = KF_CONFIG_EXIT;
		/* Flushed here, where a failure can still be told: exit() would drop it, and a script saving the
		 * output to a full disk would get an empty file and a success. */
		if (fflush(stdout) == EOF || ferror(stdout)) {
			log_err("cannot write the %s: %s", cli.help ? "help" : "version", strerror(errno ? errno : EIO));
			ret = -EIO;
		}
		goto out;
	}
	apply_log_level(&cli);
	if (asprintf(&path, "%s/kmscon-felis.conf", cli.configdir) < 0) {
		path = NULL;
		ret = -ENOMEM;
		goto out;
	}
	ret = kf_config_parse_file(cfg, path);
	if (ret < 0)
		goto out;
	/* No file where the admin pointed (a typo, kmscon's /etc/kmscon): every setting they meant is not in force,
	 * which a debug line left unsaid. The default directory may well have none (a missing file is no error). */
	if (!reload && !cfg->file_read && strcmp(cli.configdir, DEFAULT_CONFIGDIR))
		log_warn("no configuration file %s (--configdir): the defaults and the command line apply", path);
	ret = parse_argv(cfg, argc, argv, true);
	if (ret < 0)
		goto out;
	apply_log_level(cfg);
	ret = check(cfg);
out:
	free(path);
	kf_config_finish(&cli);
	return ret;
}

int kf_config_parse(struct kf_config *cfg, int argc, char **argv)
{
	return parse_all(cfg, argc, argv, false);
}

int kf_config_parse_again(struct kf_config *cfg, int argc, char **argv)
{
	return parse_all(cfg, argc, argv, true);
}
