/* kmscon-felis/config.h: every option of the program, from the configuration file and the command line.
 *
 * One table in config.c describes every option (name, type, default, help, field offset). --help, the config
 * file parser, kf_config_write() (round-trip tests) and the man page check (tests/config/) all derive from it.
 *
 * HOW TO ADD AN OPTION (other helpers: please do, one line each):
 *   1. add the field to struct kf_config below, in the section of your module;
 *   2. add one KF_OPT_*() line to the table in config.c (name, field, default as text, argument name, help);
 *   3. document it in man/kmscon-felis.conf.5.scd (a test fails if --help lists an option the man page lacks).
 * Option names follow kmscon's (kmscon_conf.c) wherever kmscon has the option, so a kmscon.conf carries over.
 *
 * Sources, lowest precedence first: built-in defaults, <configdir>/kmscon-felis.conf, the command line.
 * File syntax: "key=value" or "key" (boolean on) or "no-key" (boolean off) per line, '#' starts a comment,
 * whitespace around key and '=' and at both ends is ignored, a value may be quoted with "...".
 * Unknown key: a warning naming file and line, the rest still applies. Invalid value or malformed line: an error
 * naming file, line and the expected form; kf_config_parse() returns -EINVAL and the caller exits with status
 * KF_CONFIG_EXIT_USAGE (78) before starting anything.
 */
#ifndef KF_CONFIG_H
#define KF_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit status for a bad command line or configuration file: EX_CONFIG of sysexits.h, not the 2 of getopt users,
 * because with --oneshot our status is the program's, and a kiosk application or login that exits 2 then
 * stopped the units as if their configuration were bad (both list it in RestartPreventExitStatus=). A program
 * that exits with this status or KF_EXIT_NO_DISPLAY is reported as 1 (main.c, oneshot_status). */
#define KF_CONFIG_EXIT_USAGE 78
/* Exit status when display-wait passed without a frame on screen (main.c): EX_UNAVAILABLE. The unit lists it in
 * RestartPreventExitStatus=, so that it fails at once and OnFailure= starts getty on the VT. */
#define KF_EXIT_NO_DISPLAY 69
/* kf_config_parse() return value: --help or --version was printed; exit with status 0 without starting. */
#define KF_CONFIG_EXIT 1

enum kf_backend {
	KF_BACKEND_DRM = 0, /* the real console: libseat, DRM/KMS, libinput */
	KF_BACKEND_HEADLESS, /* no display, no input: PTY + parser + grid only (tests, benchmarks) */
};

enum kf_font_engine {
	KF_FONT_ENGINE_FONTCONFIG = 0, /* FreeType faces looked up by --font-name through fontconfig */
	KF_FONT_ENGINE_PSF, /* a Linux console PSF1/PSF2 font from --font-file */
	KF_FONT_ENGINE_BUILTIN, /* the bitmap font compiled into the binary */
};

/* kmscon's palette names. KF_PALETTE_CUSTOM uses kf_config.palette_custom (the --palette-<name> options). */
enum kf_palette {
	KF_PALETTE_DEFAULT = 0, /* kmscon's "default" / "legacy" (xterm-like) */
	KF_PALETTE_SOLARIZED,
	KF_PALETTE_SOLARIZED_BLACK,
	KF_PALETTE_SOLARIZED_WHITE,
	KF_PALETTE_SOFT_BLACK,
	KF_PALETTE_BASE16_DARK,
	KF_PALETTE_BASE16_LIGHT,
	KF_PALETTE_NORD,
	KF_PALETTE_VGA,
	KF_PALETTE_CUSTOM,
};

/* bell=: what BEL (0x07) does. kmscon's boolean forms map onto it: on = audible, off = none. */
enum kf_bell_mode {
	KF_BELL_AUDIBLE = 0, /* the console's tone (KDMKTONE), as the kernel's console beeps */
	KF_BELL_VISUAL, /* the screen inverted for a moment (xterm's visualBell) */
	KF_BELL_NONE,
};

/* Index into kf_config.palette_custom: the 16 ANSI colours in SGR order, then default foreground/background. */
enum kf_color {
	KF_COLOR_BLACK = 0,
	KF_COLOR_RED,
	KF_COLOR_GREEN,
	KF_COLOR_YELLOW,
	KF_COLOR_BLUE,
	KF_COLOR_MAGENTA,
	KF_COLOR_CYAN,
	KF_COLOR_LIGHT_GREY,
	KF_COLOR_DARK_GREY,
	KF_COLOR_LIGHT_RED,
	KF_COLOR_LIGHT_GREEN,
	KF_COLOR_LIGHT_YELLOW,
	KF_COLOR_LIGHT_BLUE,
	KF_COLOR_LIGHT_MAGENTA,
	KF_COLOR_LIGHT_CYAN,
	KF_COLOR_WHITE,
	KF_COLOR_FOREGROUND,
	KF_COLOR_BACKGROUND,
	KF_COLOR_COUNT,
};

struct kf_rgb {
	uint8_t r, g, b;
};

/* rotate=: the picture turned on the display, numbered as fbcon's rotate=N and drm/'s enum drm_rotation. */
enum kf_rotation {
	KF_ROTATE_NORMAL = 0,
	KF_ROTATE_RIGHT = 1,    /* 90 degrees clockwise */
	KF_ROTATE_INVERTED = 2, /* 180 degrees (kmscon: upside-down) */
	KF_ROTATE_LEFT = 3,     /* 90 degrees counter-clockwise */
};

/* A boolean the program may decide (issue=auto): KF_AUTO until the user says on or off. */
enum kf_tristate {
	KF_AUTO = -1,
	KF_OFF = 0,
	KF_ON = 1,
};

/* "COLSxROWS" or "WIDTHxHEIGHT"; 0x0 where allowed means "unset" (--mode: the connector's preferred mode). */
struct kf_size {
	unsigned int w, h;
};

/* Modifier bits of a grab (kmscon's <Shift>, <Lock>, <Ctrl>/<Control>, <Alt>, <Logo>). */
enum kf_mod {
	KF_MOD_SHIFT = 1u << 0,
	KF_MOD_LOCK = 1u << 1,
	KF_MOD_CTRL = 1u << 2,
	KF_MOD_ALT = 1u << 3,
	KF_MOD_LOGO = 1u << 4,
};

#define KF_GRAB_MAX 4
/* A keyboard shortcut in kmscon's syntax: comma-separated alternatives, each "<Mod>...<Mod>keysym", e.g.
 * "<Ctrl>plus,<Ctrl>equal". keysym is an xkbcommon keysym (xkb_keysym_t). n == 0: disabled (empty value). */
struct kf_grab {
	unsigned int n;
	struct {
		uint32_t mods; /* enum kf_mod bits */
		uint32_t keysym;
	} keys[KF_GRAB_MAX];
};

/* Every option of the program. Filled by kf_config_parse(); strings and login_argv are owned by the struct and
 * freed by kf_config_finish(). A NULL string means "unset" (the option's documented fallback applies). */
struct kf_config {
	/* --- general --- */
	bool help, version; /* command line only; kf_config_parse() prints and returns KF_CONFIG_EXIT */
	bool check_config; /* command line only: main() checks what a start would, then exits (0 or 78) */
	bool verbose, debug, silent; /* log level; kf_config_parse() applies it with kf_log_set_level() */
	bool log_level_cli; /* the command line set one of the three: the file's were dropped */
	char *configdir; /* command line only; default KF_SYSCONFDIR "/kmscon-felis" */
	bool file_read; /* kf_config_parse_file found the file (false: none there, the defaults); a reload that
			 * finds it gone says so (kf_config_reload) */
	bool file_empty; /* the file it found had no byte: a reload that finds it emptied says so */

	/* --- backend (issue 3) --- */
	enum kf_backend backend; /* --backend=drm|headless */
	struct kf_size size; /* --size COLSxROWS, headless grid size (default 80x24) */
	char *dump_screen; /* --dump-screen FILE: headless, write the final screen in the replay text format */
	char *input_fifo; /* --input-fifo PATH: headless testing aid, bytes from the FIFO go the keystroke path */

	/* --- session (issue 3) --- */
	char **login_argv; /* NULL-terminated, never empty: --login -- ARGV..., or "login=..." in the file;
			    * default { "/bin/login", "-p" } */
	bool login_custom; /* true when login_argv came from --login/login= (not the default) */
	bool oneshot; /* exit with the child's status instead of respawning it */
	char *term; /* TERM for the child, default "xterm-256color" */
	bool reset_env; /* start the child from a clean environment (default on) */
	unsigned int sb_size; /* scrollback lines (default 10000) */
	size_t write_queue_size; /* bytes queued towards the PTY (keys, paste, replies) before refusing; 4 MiB */
	bool clipboard_read; /* answer OSC 52 queries with the clipboard (default off) */
	/* The /etc/issue banner before the program (issue.h): auto (the default) shows it only before the default
	 * login, kmscon-felis standing in for getty + login; see kf_config_show_issue(). */
	enum kf_tristate issue;
	char *issue_path; /* colon-separated files and directories; NULL: agetty's search (issue.h) */
	enum kf_bell_mode bell; /* what BEL does (audible) */

	/* --- seat and VT (issue 6) --- */
	int vt; /* --vt=N|ttyN|/dev/ttyN; 0 = auto (the seat's current VT / the one systemd gave us) */
	bool activate_vt; /* switch the screen to our VT at start; off: wait until it is active (getty's way) */
	bool switchvt;    /* Ctrl+Alt+Fn switch VTs; with no-switchvt they do nothing (kiosk) */
	char *seat; /* libseat seat name; NULL = libseat's default (XDG_SEAT or seat0) */

	/* --- input (issue 6) --- */
	char *xkb_model, *xkb_layout, *xkb_variant, *xkb_options; /* NULL: XKB_DEFAULT_*, /etc/default/keyboard */
	char *xkb_keymap; /* a keymap file to load instead of the RMLVO names */
	char *xkb_compose_file; /* compose file instead of the locale's */
	unsigned int xkb_repeat_delay; /* ms before the first repeat (250); 0: no repeat */
	unsigned int xkb_repeat_rate; /* ms between two repeats, as in kmscon (50 ms, i.e. 20 repeats/s) */
	bool mouse; /* pointer, selection and mouse reporting (default on) */
	bool natural_scrolling; /* the wheel's steps inverted wherever they act (kmscon's option; default off) */
	bool backspace_delete; /* Backspace sends DEL (0x7f, default on) instead of ^H */
	struct kf_grab grab_scroll_up, grab_scroll_down, grab_page_up, grab_page_down;
	struct kf_grab grab_zoom_in, grab_zoom_out, grab_zoom_reset;
	struct kf_grab grab_session_next, grab_session_prev; /* next/previous VT */
	struct kf_grab grab_paste;
	struct kf_grab grab_rotate_cw, grab_rotate_ccw; /* turn the display a quarter (kmscon's <Logo>plus/minus) */

	/* --- display (issue 5) --- */
	bool drm; /* kmscon's drm: on (default) DRM first, a framebuffer device without a DRM display; off: fbdev only */
	struct kf_size mode; /* --mode WxH; 0x0 = the connector's preferred mode */
	bool use_original_mode; /* keep the mode each display has at start (off); mode wins over it */
	unsigned int dpms_timeout; /* seconds without input or output before blanking; 0 = never (600) */
	unsigned int display_wait; /* seconds, from having the VT, to a first frame, else exit; 0 = forever (0) */
	enum kf_rotation rotate; /* --rotate: the picture turned on the display (normal) */

	/* --- font and colours (issue 4) --- */
	char *font_name; /* fontconfig pattern (monospace) */
	unsigned int font_size; /* pixels (16) */
	enum kf_font_engine font_engine;
	char *font_file; /* PSF file for --font-engine=psf */
	enum kf_palette palette;
	struct kf_rgb palette_custom[KF_COLOR_COUNT]; /* used when palette == KF_PALETTE_CUSTOM */
};

/* Fills cfg with the defaults. cfg is caller-owned; call kf_config_finish() to free what this allocates.
 * Returns 0 or -ENOMEM. */
int kf_config_init(struct kf_config *cfg);

/* Frees every string cfg owns and zeroes it. Accepts a zeroed struct and may be called twice. */
void kf_config_finish(struct kf_config *cfg);

/* The whole start-up configuration: defaults, then <configdir>/kmscon-felis.conf, then argv (argv wins).
 * Does not take ownership of argv. cfg must be uninitialised or finished; on every return cfg is initialised
 * (call kf_config_finish() afterwards in every case).
 * Returns 0 to run; KF_CONFIG_EXIT when --help/--version was printed (exit 0), -EIO when it could not be (logged;
 * exit 1); -EINVAL for a bad command line or file (the error is logged with file, line and expected form; exit
 * KF_CONFIG_EXIT_USAGE); -ENOMEM.
 * Also applies --verbose/--debug/--silent to the logger. */
int kf_config_parse(struct kf_config *cfg, int argc, char **argv);

/* The configuration read again while running (SIGHUP): kf_config_parse() with the same argv into next (must be
 * uninitialised or finished). On success next holds the new values of the keys that can change live
 * (kf_config_key_is_live) and cur's values of every other key, moved from cur (cur keeps the new ones, to be
 * freed): replace cur with next (kf_config_finish(cur), then *cur = *next) and apply the live keys. Those that
 * changed are listed in applied ("palette, bell", "" for none; always NUL-terminated, "..." when cut); the
 * others that changed are logged as needing a restart. Running headless (cur's backend), the display's keys
 * (font-*, dpms-timeout) take their new value but are not listed: a notice names them as having nothing to
 * apply to. On error (logged with file and line) next is finished
 * and cur is untouched. Returns 0, -EINVAL or -ENOMEM. */
int kf_config_reload(struct kf_config *cur, struct kf_config *next, int argc, char **argv, char *applied,
		     size_t size);
/* Undoes a kf_config_reload that returned 0 when the program cannot apply it (a font that does not open, a
 * keymap that does not compile), before cur is replaced: cur gets back every value it had, the same pointers
 * (the session holds the login's argv and TERM), next is finished, and the log level is cur's again. */
void kf_config_reload_cancel(struct kf_config *cur, struct kf_config *next);
/* The restart-only keys swapped between cur and next, as kf_config_reload and kf_config_reload_cancel do: after
 * a kf_config_reload, cur has all its values in force again while the reload waits (the keymap's compile,
 * reload.c); called again before the reload goes on, it is as kf_config_reload left them. */
void kf_config_reload_swap(struct kf_config *cur, struct kf_config *next);
/* Whether the running program applies a new value of the key name on reload (reload.c kf_reload_on_timer). */
bool kf_config_key_is_live(const char *name);

/* Lower-level pieces (tests, tools). All return 0, -EINVAL (logged) or -ENOMEM. */

/* Applies argv (argv[0] is the program name) over cfg. */
int kf_config_parse_argv(struct kf_config *cfg, int argc, char **argv);
/* Applies one configuration file over cfg. A missing file is not an error; one that is no regular file, larger
 * than 1 MiB, or changed while it was read is (-EINVAL, logged with the path). */
int kf_config_parse_file(struct kf_config *cfg, const char *path);
/* Applies the text of a configuration file over cfg; name is used in messages. */
int kf_config_parse_text(struct kf_config *cfg, const char *name, const char *text, size_t len);
/* Sets one key from text, as a file line "key=value" would (value NULL: "key" alone). */
int kf_config_set(struct kf_config *cfg, const char *key, const char *value);

/* Whether the issue banner is shown: issue=on or off as given; auto: only when login was not given (login_custom
 * false: /bin/login -p, kmscon-felis standing in for getty + login). A program given with login=/--login (a kiosk,
 * a shell, even /bin/login by name) gets a screen without it unless issue=on asks for it. */
bool kf_config_show_issue(const struct kf_config *cfg);

/* Writes every file key of cfg as "key=value" lines that kf_config_parse_text() reads back to an equal config. */
void kf_config_write(const struct kf_config *cfg, FILE *out);
/* Prints --help (generated from the option table) to out. */
void kf_config_print_help(FILE *out, const char *argv0);

/* The option table, for tests and tools: number of options, and option i's long name / whether it is a file key
 * (command-line-only options are not) / whether it is boolean / an example value (NULL for booleans). */
size_t kf_config_option_count(void);
const char *kf_config_option_name(size_t i);
bool kf_config_option_is_key(size_t i);
bool kf_config_option_is_bool(size_t i);
const char *kf_config_option_example(size_t i);
const char *kf_config_option_default(size_t i);

/* Formats option i's current value in cfg as file text into buf (always NUL-terminated); returns the length
 * that was needed, as snprintf. */
int kf_config_format(const struct kf_config *cfg, size_t i, char *buf, size_t size);

#endif
