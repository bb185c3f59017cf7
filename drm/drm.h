/* drm/drm.h: DRM/KMS scan-out of one canvas on every connected display.
 *
 * The backend owns every DRM card of the seat (found through udev, opened through the program's callback) and
 * shows one canvas, a cached XRGB8888 picture in ordinary memory, on every connected connector (clone mode). The
 * canvas is as large as the smallest output (of those the kernel takes together: a display it refuses beside the
 * others is left out, as if unplugged, and tried again at the next modeset); each output shows it at its top-left corner on black (the top-left as
 * the user sees it: with a rotation, see drm_backend_set_rotation). The program
 * paints into the canvas and says which rectangles changed; per output the backend copies the union of damage
 * over each dumb buffer's age into it and commits it with FB_DAMAGE_CLIPS. With a single output on a card that
 * does not prefer a shadow (DRM_CAP_DUMB_PREFER_SHADOW = 0: virtio-gpu, most drivers with dumb buffers in
 * system memory) there is no canvas in ordinary memory: the canvas is the dumb buffer the next frame goes into,
 * already holding the frame on screen (the backend copies the previous frames' damage into it from the buffer
 * on screen), so painting the damage is all the program does. Commits are atomic (a TEST_ONLY commit before
 * every modeset, non-blocking flips with page-flip events, at most one commit in flight per CRTC, never a
 * blocking wait for a flip), or the legacy API when the driver has no atomic support.
 *
 * Framebuffer fallback: while no DRM card drives a display (a kernel without a DRM driver for the GPU, or booted
 * with nomodeset: efifb, vesafb), or always with force_fbdev (kmscon's drm=off), the backend shows the canvas on a
 * Linux framebuffer device (/dev/fbN, not a DRM driver's fbdev emulation unless forced) behind this same
 * interface: the canvas in ordinary memory, its damage copied into the mapping, a timer at the mode's refresh
 * standing in for page-flip events, FBIOBLANK for DPMS. A DRM display appearing later takes over (see
 * drm/fallback.c).
 *
 * drm/ knows nothing about text. Everything runs on the caller's thread: drm_backend_get_fd() is one pollable
 * fd (an epoll set of its own holding the cards, the udev monitor and a timer for the flip watchdog, frame
 * pacing and DPMS) and drm_backend_dispatch() handles what is ready.
 *
 * Environment: KMSCON_FELIS_DRM_LEGACY=1 forces the legacy API, KMSCON_FELIS_DRM_SHADOW=1 the canvas in ordinary
 * memory (for tests). KMSCON_FELIS_DRM_DROP_FLIP_EVENT=N
 * (fault injection for tests) ignores the Nth page-flip event answering one of our commits (counted from 1), as
 * if the kernel never sent it: the flip watchdog must give up on it after 1 s and recover with a modeset.
 */
#ifndef KF_DRM_DRM_H
#define KF_DRM_DRM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Log handler for drm/: prio is a syslog priority (3 = error ... 7 = debug); file and line are where in drm/
 * the message comes from (static strings). NULL (the default) discards messages. Global: set it once before
 * drm_backend_create. */
void drm_set_log_handler(void (*handler)(int prio, const char *file, int line, const char *fmt, va_list ap));

/* A rectangle in canvas pixels. */
struct drm_box {
	int32_t x, y, w, h;
};

/* Parses "WxH" (e.g. "1024x768") into *w and *h. Returns 0, or -EINVAL for anything else (both within 1..16384). */
int drm_mode_parse(const char *s, uint32_t *w, uint32_t *h);

struct drm_backend;

struct drm_backend_iface {
	/* Opens a DRM device node, or a framebuffer's (/dev/fbN); returns an fd (O_RDWR, non-blocking,
	 * close-on-exec) or -errno, -ENOTSUP when it does not hand out framebuffers (the backend opens those
	 * itself then, and says so at debug level only). The backend owns the fd until it passes it to
	 * close_device. NULL: plain open(2). */
	int (*open_device)(const char *path, void *ud);
	/* Takes back an fd from open_device. NULL: close(2). */
	void (*close_device)(int fd, void *ud);
	/* The set of outputs or the canvas size changed (hotplug, card added or removed, resume): read the size
	 * again with drm_backend_get_canvas and repaint all of it. Called from dispatch or resume, never from
	 * drm_backend_create. May be NULL. */
	void (*outputs_changed)(void *ud);
	/* An output became able to take a frame (a flip completed or the pacing delay passed). The program's next
	 * pre-sleep hook should render if damaged. May be NULL. */
	void (*frame_ready)(void *ud);
	/* Whether the display is ours now: the seat enabled us and our VT is in front. A card refusing us DRM master
	 * (EACCES) then is held by another master (the last instance's seat helper not yet gone, a compositor, a
	 * second console on the seat), not being switched away: the backend asks the kernel for master itself
	 * (drmSetMaster) 50 ms after the refusal, then at doubling intervals up to 1 s, and shows the display as soon
	 * as it gets it. Asked only then: master is the seat's to give while a switch is under way. NULL: a refusal
	 * always waits for the next drm_backend_resume (the seat's enable). */
	bool (*display_ours)(void *ud);
};

/* Display rotation, numbered as fbcon's rotate=N: the picture turned on the panel by 90 degrees clockwise
 * (right), 180 (inverted) or 90 counter-clockwise (left), for a display mounted turned the other way. */
enum drm_rotation {
	DRM_ROTATE_NORMAL = 0,
	DRM_ROTATE_RIGHT = 1,
	DRM_ROTATE_INVERTED = 2,
	DRM_ROTATE_LEFT = 3,
};

struct drm_backend_config {
	uint32_t mode_width, mode_height; /* 0: each connector's preferred mode (or the original one, below) */
	/* Each connector keeps the mode its CRTC drives when the card is opened (fbcon's, the firmware's: no
	 * modeset to another size), if valid; else, and for connectors connected later, the preferred mode.
	 * mode_width x mode_height wins over it. */
	bool use_original_mode;
	enum drm_rotation rotation;       /* see drm_backend_set_rotation */
	unsigned dpms_timeout_s;          /* blank after this long without activity; 0 = never */
	bool force_legacy;                /* use drmModeSetCrtc/drmModePageFlip even when atomic works */
	bool force_fbdev;                 /* kmscon's drm=off: open no DRM card, show a framebuffer device */
	const char *seat;                 /* udev seat of the cards to use; NULL = "seat0" */
};

/* Creates the backend: enumerates the seat's cards and sets up every connected connector; the first modeset
 * happens with the first drm_backend_present (so it shows the program's first frame). Having no usable card is not an error: it shows a framebuffer device if there is one, else logs why and waits for either through udev. An unsupported
 * mode_width x mode_height at start returns -EINVAL after logging the modes available. Does not take ownership
 * of cfg (seat is copied) or iface (copied); ud is passed back to the callbacks. Returns 0 or -errno. */
int drm_backend_create(struct drm_backend **out, const struct drm_backend_config *cfg,
		       const struct drm_backend_iface *iface, void *ud);
/* Restores nothing (the next master does its own modeset), frees every buffer and closes every card through
 * close_device. Accepts NULL. */
void drm_backend_destroy(struct drm_backend *b);

/* One fd for the program's loop: readable when drm_backend_dispatch has work. Owned by the backend. */
int drm_backend_get_fd(const struct drm_backend *b);
/* Handles page-flip events, udev hotplug events and expired timers without blocking. Returns 0 or -errno
 * (only for failures of the backend's own epoll/timer fds). */
int drm_backend_dispatch(struct drm_backend *b);

/* The canvas the program paints into. Owned by the backend. Get it again before painting each frame: pixels
 * are valid until the next drm_backend_present, outputs_changed callback or drm_backend_destroy (when painted
 * directly, each frame goes into another dumb buffer, and pixels is NULL while no buffer is free: a commit in
 * flight, the display suspended or blanked). The size stays until outputs_changed; pixels is NULL and the size
 * 0x0 while there is no output. */
struct drm_canvas {
	uint32_t *pixels; /* XRGB8888 */
	uint32_t width, height;
	uint32_t stride; /* in bytes */
};
void drm_backend_get_canvas(struct drm_backend *b, struct drm_canvas *canvas);
/* Only the canvas size (0x0 while there is no output). Unlike drm_backend_get_canvas it takes no buffer: when
 * painting directly, that would create and clear a dumb buffer before the program has anything to paint. */
void drm_backend_get_size(const struct drm_backend *b, uint32_t *width, uint32_t *height);
/* The same, with a promise: before the next drm_backend_present the program overwrites every pixel of the
 * boxes of cover (n_cover boxes; only read). When painted directly, the buffer's catch-up with the newest frame
 * then skips them (under a flood every frame repaints the whole screen, which makes the copy pure waste). A box
 * the program then does not paint shows stale pixels: promise only what is certain. */
void drm_backend_prepare_canvas(struct drm_backend *b, struct drm_canvas *canvas, const struct drm_box *cover,
				size_t n_cover);

/* For after the first frame, when nothing waits: when painted directly, creates the dumb buffers that later frames
 * would otherwise create (only the first is made before the first frame) and faults their pages in. Failures are
 * left for those frames to report. */
void drm_backend_prepare_buffers(struct drm_backend *b);

/* True when a frame painted now would be shown without waiting: some enabled output has no commit in flight
 * and its pacing delay (one refresh since its last flip) has passed. */
bool drm_backend_can_render(const struct drm_backend *b);
/* The program painted the canvas; damage lists the changed rectangles (clipped to the canvas; NULL/0 with
 * full = true for all of it). Outputs that can take a frame commit now; the others commit the canvas when
 * their flip completes. Counts as activity for DPMS (but does not unblank). Returns 0 or -errno. */
int drm_backend_present(struct drm_backend *b, const struct drm_box *damage, size_t n_damage, bool full);
/* The same for a frame that only shows time passing (a blink phase), not activity: a blinking cursor must not
 * keep the display from blanking. */
int drm_backend_present_idle(struct drm_backend *b, const struct drm_box *damage, size_t n_damage, bool full);

/* Turns the picture. The canvas takes the output's size turned (WxH becomes HxW for right and left): the canvas
 * and the program's coordinates stay upright as the user sees them. While turned, the canvas is always in
 * ordinary memory (never the dumb buffer itself) and each output's copy of damage into its buffer turns the
 * pixels, and the damage clips with them; normal rotation leaves every path as it was. At run time it acts as a
 * hotplug would: every buffer is repainted whole and outputs_changed is called (the program repaints all). */
void drm_backend_set_rotation(struct drm_backend *b, enum drm_rotation rotation);
enum drm_rotation drm_backend_get_rotation(const struct drm_backend *b);

/* Input activity: resets the DPMS timer and unblanks blanked outputs. Cheap; call it on every input event. */
void drm_backend_notify_input(struct drm_backend *b);
/* Another DPMS timeout in seconds (0 = never; a configuration reload), counted from now: a shorter one does not
 * blank at once a screen someone may be looking at. A blanked display stays blanked until input. */
void drm_backend_set_dpms_timeout(struct drm_backend *b, unsigned seconds);
/* Blanks (true) or unblanks (false) every output now, independent of the timer; with a flip in flight, blanking
 * happens when it completes (unless unblanked or input comes first). */
void drm_backend_set_blank(struct drm_backend *b, bool blank);
bool drm_backend_is_blanked(const struct drm_backend *b);

/* The seat took the display away (VT switch): stop committing. Flips in flight are forgotten. */
void drm_backend_suspend(struct drm_backend *b);
/* The seat gave the display back: rescan connectors; the next commit is a full modeset that also disables the
 * CRTCs and planes we do not use. Unblanks and restarts the DPMS timeout (a switch back is activity). Calls
 * outputs_changed if the canvas size changed. */
void drm_backend_resume(struct drm_backend *b);

/* Counters for tests and benchmarks. */
struct drm_backend_stats {
	uint64_t commits;        /* flips and modesets submitted */
	uint64_t modesets;       /* full modesets submitted */
	uint64_t flips;          /* page-flip events received (one per output per frame) */
	uint64_t presents;       /* drm_backend_present calls */
	uint64_t watchdog_fires; /* flips given up on */
	uint64_t fast_flips;     /* flips completing less than 3/4 of a refresh after the previous one */
	uint64_t pixels_copied;  /* canvas pixels copied into dumb buffers */
	unsigned outputs;        /* outputs currently shown */
	unsigned cards;          /* cards currently open */
	bool legacy;             /* some card uses the legacy API */
	bool fbdev;              /* a framebuffer device (/dev/fbN) is shown instead of DRM */
	uint32_t refresh_mhz;    /* refresh rate of the first output in mHz, 0 without outputs */
};
void drm_backend_get_stats(const struct drm_backend *b, struct drm_backend_stats *stats);

#endif
