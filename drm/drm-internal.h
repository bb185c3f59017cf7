/* drm/drm-internal.h: what the files of drm/ share; not for users of the library (tests may include it).
 *
 * Objects: a backend holds cards (one per /dev/dri/cardN of the seat); a card holds outputs (one per connected
 * connector, each with its own CRTC, primary plane, mode and dumb buffers). Property ids are looked up by name
 * once per object (card_crtc, card_plane, output) and kept here.
 */
#ifndef KF_DRM_INTERNAL_H
#define KF_DRM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <libudev.h>
#include <linux/fb.h>

#include <xf86drmMode.h>

#include "drm/drm.h"

/* ---- logging (log.c) ---- */
void drm_log_at(int prio, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
#define drm_log(prio, ...) drm_log_at(prio, __FILE__, __LINE__, __VA_ARGS__)
#define drm_err(...) drm_log(3, __VA_ARGS__)
#define drm_warn(...) drm_log(4, __VA_ARGS__)
#define drm_notice(...) drm_log(5, __VA_ARGS__)
#define drm_info(...) drm_log(6, __VA_ARGS__)
#define drm_debug(...) drm_log(7, __VA_ARGS__)

/* Lets through at most `burst` messages per `interval_ns`; counts the rest (for per-frame messages). */
struct drm_ratelimit {
	int64_t interval_ns, start_ns;
	unsigned burst, count, suppressed;
};
bool drm_ratelimit_pass(struct drm_ratelimit *rl, int64_t now_ns);
int64_t drm_now_ns(void);

/* ---- damage regions (region.c) ---- */

/* A small set of rectangles. Adding merges overlapping or touching rectangles; past DRM_REGION_MAX the set
 * collapses into its bounding box, so a region never grows without bound. */
#define DRM_REGION_MAX 16
struct drm_region {
	unsigned n;
	bool full; /* everything, whatever the size */
	struct drm_box r[DRM_REGION_MAX];
};
void drm_region_clear(struct drm_region *rg);
void drm_region_set_full(struct drm_region *rg);
void drm_region_add(struct drm_region *rg, struct drm_box box);
void drm_region_add_region(struct drm_region *dst, const struct drm_region *src);
/* Clips to w x h; a full region becomes the box 0,0,w,h. */
void drm_region_clip(struct drm_region *rg, int32_t w, int32_t h);
bool drm_region_empty(const struct drm_region *rg);
int64_t drm_region_area(const struct drm_region *rg);

/* The damage of the last DRM_DAMAGE_HISTORY frames of one output, for buffer age. */
#define DRM_DAMAGE_HISTORY 4
struct drm_damage_ring {
	uint64_t frames; /* frames pushed */
	struct drm_region d[DRM_DAMAGE_HISTORY];
};
void drm_damage_ring_reset(struct drm_damage_ring *ring);
void drm_damage_ring_push(struct drm_damage_ring *ring, const struct drm_region *frame);
/* What a buffer of age `age` needs repainted to show the newest frame plus `current` (not yet pushed): the
 * union of current and the last age-1 pushed frames. Age 0 (never painted) or older than the history: full. */
void drm_damage_ring_union(const struct drm_damage_ring *ring, uint64_t age, const struct drm_region *current,
			   struct drm_region *out);

/* ---- rotation (rotate.c) ---- */
/* The size w x h turned by r (swapped for right and left). */
void drm_rotate_size(enum drm_rotation r, uint32_t w, uint32_t h, uint32_t *rw, uint32_t *rh);
/* Box b of the canvas, as the pixels it covers in a bw x bh buffer turned by r (the canvas at the top-left as the
 * user sees it). */
struct drm_box drm_rotate_box(enum drm_rotation r, struct drm_box b, uint32_t bw, uint32_t bh);
/* Every box of rg so (a full region stays full). */
void drm_rotate_region(enum drm_rotation r, struct drm_region *rg, uint32_t bw, uint32_t bh);
/* Copies box (canvas coordinates, inside the canvas src of stride src_stride bytes) into the bw x bh buffer dst
 * of stride dst_stride, turned by r, in tiles (see rotate.c). Returns the pixels copied. */
uint64_t drm_rotate_copy(enum drm_rotation r, uint8_t *dst, uint32_t dst_stride, uint32_t bw, uint32_t bh,
			 const uint32_t *src, uint32_t src_stride, struct drm_box box);
/* output.c: the copy of normal rotation, row by row with memcpy (for the benchmark beside the turned one). */
uint64_t drm_copy_plain(uint8_t *dst, uint32_t dst_stride, const struct drm_canvas *c, const struct drm_region *rg);

/* ---- modes (modes.c) ---- */
/* Index of the mode to use: the preferred one (or the first) when w is 0, else a w x h mode (preferred flag,
 * then progressive, then highest refresh); only modes of 1..16384 each way. -1 when none matches. */
int drm_mode_choose(const drmModeModeInfo *modes, int n, uint32_t w, uint32_t h);
/* use-original-mode: whether two modes have the same timings and flags (the name and the type bits, which the
 * kernel sets for a mode's origin, are not compared: the mode a CRTC drives is listed with other type bits). */
bool drm_mode_same(const drmModeModeInfo *a, const drmModeModeInfo *b);
/* Whether a mode read from a CRTC can be shown again: a size within 1..16384 each way and a pixel clock. */
bool drm_mode_usable(const drmModeModeInfo *m);
/* After a mode is refused (the kernel would not show it, or no canvas could be made for it): the index of the
 * next mode to try, in the order the preferred mode first, then the others as the kernel lists them; *next (0 at
 * first) is where that order goes on. Skips the n_refused modes of refused (the one refused now, the one chosen
 * at first, which the order may come to later), modes not usable and, when max_area is not 0, modes of max_area
 * pixels or more. -1 when none is left (modes past 16384 each way never count). */
int drm_mode_fallback(const drmModeModeInfo *modes, int n, unsigned *next, const drmModeModeInfo *refused,
		      unsigned n_refused, uint64_t max_area);
/* drm_mode_select's answer when the original mode is not among the connector's: show *original itself. */
#define DRM_SELECT_ORIGINAL (-2)
/* The mode a connector shows: w x h when w is not 0 (drm_mode_choose: an explicit mode wins over the original);
 * else, when original is not NULL (use-original-mode, and the connector's CRTC drove it when the card was
 * opened), that mode: the index of the first listed mode with its timings, or DRM_SELECT_ORIGINAL when none has
 * them (a connector without modes included: the CRTC drives it, so the mode works); else the preferred mode (or
 * the first). -1 when none. */
int drm_mode_select(const drmModeModeInfo *modes, int n, uint32_t w, uint32_t h, const drmModeModeInfo *original);
/* Writes the distinct sizes of modes as "1024x768 800x600 ..." into buf. */
void drm_mode_list(const drmModeModeInfo *modes, int n, char *buf, size_t size);
uint32_t drm_mode_refresh_mhz(const drmModeModeInfo *mode);
/* One refresh period of mode in ns, for pacing the flips of drivers without vblank: 60 Hz without timings, and
 * within 1..50 ms whatever the timings say. */
int64_t drm_mode_period_ns(const drmModeModeInfo *mode);

/* ---- properties (props.c) ---- */
/* For each wanted name, the id of the property of that name among the object's (names[i], ids[i]), or 0. */
void drm_props_match(const char *const *wanted, size_t n_wanted, const char *const *names,
		     const uint32_t *ids, size_t n, uint32_t *out);
/* Looks up the wanted property ids (0 when missing) and current values of a KMS object. Returns 0 or -errno. */
int drm_props_lookup(int fd, uint32_t obj, uint32_t type, const char *const *wanted, size_t n_wanted,
		     uint32_t *ids, uint64_t *values);

/* The current value of property prop of a KMS object. Returns 0, -ENOENT or -errno. */
int drm_prop_value(int fd, uint32_t obj, uint32_t type, uint32_t prop, uint64_t *value);

enum { CONN_CRTC_ID, CONN_DPMS, CONN__COUNT };
enum { CRTC_ACTIVE, CRTC_MODE_ID, CRTC__COUNT };
enum {
	PLANE_TYPE,
	PLANE_FB_ID,
	PLANE_CRTC_ID,
	PLANE_SRC_X,
	PLANE_SRC_Y,
	PLANE_SRC_W,
	PLANE_SRC_H,
	PLANE_CRTC_X,
	PLANE_CRTC_Y,
	PLANE_CRTC_W,
	PLANE_CRTC_H,
	PLANE_FB_DAMAGE_CLIPS,
	PLANE__COUNT
};
extern const char *const drm_conn_prop_names[CONN__COUNT];
extern const char *const drm_crtc_prop_names[CRTC__COUNT];
extern const char *const drm_plane_prop_names[PLANE__COUNT];

/* ---- framebuffer fallback: pure parts (fbdev-format.c) ---- */
#define DRM_FB_DEFAULT_MHZ 60000
/* An fbdev's pixel layout: bytes per pixel, and each channel's bit offset and length (at most 8). */
struct drm_fb_format {
	uint8_t bytes; /* 2, 3 or 4 */
	uint8_t r_off, r_len, g_off, g_len, b_off, b_len;
	bool xrgb8888; /* the canvas' own layout: rows are copied as they are */
	/* The bits of the pixel's alpha channel (var.transp), 0 for none: set in every pixel written, opaque, as the
	 * kernel's drivers set them in fbcon's colours (drm_fb_helper's pseudo palette): a display that honours
	 * alpha (DRM's fbdev emulation in ARGB8888) shows a pixel whose alpha is 0 as nothing. */
	uint32_t opaque;
};
/* The layout of v (packed truecolour of 16, 24 or 32 bpp). Returns 0, or -ENOTSUP with the reason in why. */
int drm_fb_format_from_var(const struct fb_var_screeninfo *v, const struct fb_fix_screeninfo *fix,
			   struct drm_fb_format *f, char *why, size_t why_size);
/* "XRGB8888", "RGB565", or the bits spelt out, into buf. */
void drm_fb_format_name(const struct drm_fb_format *f, char *buf, size_t size);
/* One XRGB8888 pixel in f's layout (each channel's top bits). */
uint32_t drm_fb_pack(const struct drm_fb_format *f, uint32_t xrgb);
/* n canvas pixels into n pixels of f at dst (n * f->bytes bytes; dst is only written). */
void drm_fb_convert_row(const struct drm_fb_format *f, uint8_t *dst, const uint32_t *src, uint32_t n);
/* The refresh in mHz from v's pixclock and margins; DRM_FB_DEFAULT_MHZ (60 Hz) when they are not set or give
 * something outside 20..300 Hz. */
uint32_t drm_fb_refresh_mhz(const struct fb_var_screeninfo *v);
/* Where an fbdev's visible area is: what to mmap and where the first visible pixel lands in the mapping. */
struct drm_fb_layout {
	uint64_t offset;  /* mmap offset: a page multiple */
	uint64_t size;    /* mmap length: to the end of the last visible row */
	uint64_t visible; /* the first visible pixel, bytes into the mapping */
	uint64_t first;   /* the same pixel, bytes into the fb's memory (yoffset, xoffset) */
	uint32_t line;    /* bytes from a row to the next */
};
/* The layout of v's visible area (bytes per pixel, a page of page bytes). Returns 0, or -EINVAL with the reason
 * in why when the area does not fit its lines or the fb's memory (a driver bug). */
int drm_fb_layout(const struct fb_var_screeninfo *v, const struct fb_fix_screeninfo *fix, unsigned bytes,
		  uint64_t page, struct drm_fb_layout *l, char *why, size_t why_size);
/* Whether an fbdev is a DRM driver's emulation: id (fix.id, /sys/class/graphics/fbN/name) ends in "drmfb", or
 * its device has a drm/ directory. */
bool drm_fb_is_drm_emulation(const char *id, bool has_drm_dir);
struct drm_fb_candidate {
	unsigned num;   /* N of fbN */
	char id[32];    /* fix.id */
	bool drm_dir;   /* /sys/class/graphics/fbN/device/drm exists */
};
/* The index of the fbdev to use among c (the lowest N; DRM emulations only when allow_emulation), or -1. */
int drm_fb_pick(const struct drm_fb_candidate *c, size_t n, bool allow_emulation);

/* The fbdevs whose refusal (why one cannot be shown) was logged, so that trying one again at each uevent says it
 * once: a device and a hash of its message. Bounded: the oldest is forgotten for a new one. */
#define DRM_FB_REFUSALS_MAX 8
struct drm_fb_refusals {
	struct {
		dev_t dev;
		uint32_t hash;
	} e[DRM_FB_REFUSALS_MAX];
	unsigned n;
};
/* Whether dev's refusal why is news (log it as an error; else at debug level): not said for dev since it was
 * forgotten, or said with another reason. Remembers it. */
bool drm_fb_refusal_new(struct drm_fb_refusals *r, dev_t dev, const char *why);
/* dev was removed, added or shown: its next refusal is news. */
void drm_fb_refusal_forget(struct drm_fb_refusals *r, dev_t dev);

/* ---- framebuffer fallback: the device (fbdev.c) and when to use it (fallback.c) ---- */
/* One open /dev/fbN, shown instead of DRM outputs. Single-buffered: a frame is the canvas' damage copied
 * into the mapping (never read: it may be write-combined or uncached); a timer at the mode's refresh stands
 * in for the page-flip event, so that at most one frame goes out per refresh. */
struct drm_fbdev {
	int fd;
	bool via_seat;        /* fd came from the seat's open callback (else open(2)) */
	dev_t devnum;
	char path[32], sysname[16], id[32];
	uint32_t width, height, line_length;
	struct drm_fb_format format;
	uint8_t *map;         /* mmap of the visible area, from map_size bytes before it... */
	size_t map_size;
	uint8_t *visible;     /* ...: the first visible pixel */
	struct drm_fb_layout layout; /* where it was mapped from (a mode change moves it: drm_fbdev_check) */
	uint8_t *row;         /* a converted row in ordinary memory, written to the mapping with memcpy */
	uint32_t *turned;     /* a turned display: the picture as the fb holds it, in XRGB8888 */
	uint32_t refresh_mhz;
	int64_t period_ns;
	struct drm_region damage; /* canvas damage not yet copied */
	bool dirty;
	bool inflight;        /* a frame was copied and its refresh has not passed */
	int64_t flip_ns;      /* when it passes (the "flip event") */
	bool blank_ok;        /* FBIOBLANK works */
	bool powered_down;    /* our FBIOBLANK powered the display down (drm_fbdev_set_blank; cleared by its unblank
			       * and drm_fbdev_power_up) */
	struct drm_ratelimit rl;
	char *why;            /* while drm_fbdev_open runs: its caller's buffer for why it fails */
	size_t why_size;
	bool stale;           /* its mode changed while shown: to open again (fallback.c drm_fallback_reopen) */
};
/* Opens and maps node (a /dev/fbN; sysname "fbN"): through the seat's callback if it takes it, else open(2).
 * Returns 0 and *out (owned by the caller until drm_fbdev_close) or -errno with why it cannot be used in why
 * (why_size bytes, the caller's; not logged: the caller says it once, drm_fb_refusal_new). */
int drm_fbdev_open(struct drm_backend *b, const char *node, const char *sysname, dev_t devnum, char *why,
		   size_t why_size, struct drm_fbdev **out);
/* Unmaps and closes. Accepts NULL. */
void drm_fbdev_close(struct drm_backend *b, struct drm_fbdev *fb);
/* Copies fb->damage from the canvas c (turned by r) into the fb and starts the refresh wait. Returns the
 * pixels copied. */
uint64_t drm_fbdev_copy(struct drm_fbdev *fb, const struct drm_canvas *c, enum drm_rotation r, int64_t now);
/* FBIOBLANK: powers the display down (true) or up. Returns 0 or -errno (-ENOTTY/-EINVAL: not supported). */
int drm_fbdev_set_blank(struct drm_fbdev *fb, bool blank);
/* Powers the display up if our FBIOBLANK powered it down, for whoever shows the fb next: the kernel's console
 * does not (fbcon ignores a blank made while the VT is in graphics mode, so it believes the panel on). Called
 * when the VT is given away and at close. */
void drm_fbdev_power_up(struct drm_fbdev *fb);
/* Reads the mode again (after a VT switch another program may have changed it): 1 when it changed (fb must be
 * reopened), 0 when not, -errno when the device is gone. */
int drm_fbdev_check(struct drm_fbdev *fb);

/* fallback.c: whether to show an fbdev, and which. Called by the backend whenever the outputs change: with no
 * DRM output (or with DRM off) opens the first usable fbdev; with a DRM output closes the fbdev. Returns true
 * when the fbdev changed (the canvas must follow). */
bool drm_fallback_update(struct drm_backend *b, unsigned drm_outputs);
/* A uevent of the graphics subsystem (an fbN added or removed). */
void drm_fallback_uevent(struct drm_backend *b, struct udev_device *dev);
/* Copies the damage into the fbdev when it can take a frame (the backend's kick); a mode changed meanwhile (the
 * mode is read before each copy) marks it stale instead, copying nothing. */
void drm_fallback_kick(struct drm_backend *b, int64_t now);
/* A stale fbdev is opened again at its new mode (or, when it cannot be, closed: the canvas update looks for
 * another). At the dispatch, never inside a present: the canvas follows. Returns true when it did either. */
bool drm_fallback_reopen(struct drm_backend *b);
/* The backend's timer: ends the refresh wait of the last copy (the fbdev's "page-flip event"). */
void drm_fallback_timer(struct drm_backend *b, int64_t now);
/* Closes the fbdev (drm_backend_destroy). */
void drm_fallback_finish(struct drm_backend *b);

/* ---- objects ---- */
struct drm_buffer {
	uint32_t handle, fb_id;
	uint32_t width, height, stride;
	uint64_t size;
	uint8_t *map;
	uint64_t frame; /* output frame number this buffer shows; 0 = never painted (contents unknown) */
};

#define DRM_BUFFERS 2

struct drm_card;

#define DRM_OUTPUT_MAX_ENCODERS 8
struct drm_output {
	struct drm_card *card;
	uint32_t conn_id, crtc_id, plane_id;
	unsigned crtc_index;
	char name[40]; /* "[CONNECTOR:%u:%s]" */
	drmModeModeInfo mode;
	uint8_t mode_source; /* enum drm_mode_source: where mode came from (drm_output_keeps_mode) */
	uint32_t mode_blob;
	uint32_t refresh_mhz;
	int64_t period_ns;
	uint32_t conn_props[CONN__COUNT];

	struct drm_buffer bufs[DRM_BUFFERS];
	/* Slots: a buffer is painted as `pending`, moves to `queued` when its commit is accepted, and to
	 * `current` when the flip event says it is on screen. Moved only by output_slot_* in output.c. */
	struct drm_buffer *pending, *queued, *current;
	/* Direct mode (struct drm_backend): the buffer the program paints its next frame into, brought up to the
	 * newest frame by drm_output_prepare; kept until a commit of it succeeds (a failed commit keeps what the
	 * program painted in it). */
	struct drm_buffer *prepared;

	uint64_t frame;                  /* frames committed */
	struct drm_damage_ring history;  /* damage of committed frames */
	struct drm_region damage;        /* canvas damage not yet committed on this output */
	bool dirty;                      /* damage waits for a commit */
	bool inflight;                   /* a commit is waiting for its flip event */
	uint64_t inflight_seq;           /* commit number of that commit (stale events are ignored) */
	int64_t inflight_deadline_ns;    /* watchdog */
	int64_t last_flip_ns;            /* when the last flip event arrived */
	int64_t next_frame_ns;           /* pacing for drivers without vblank: no commit before this */
	bool fake_vblank;                /* flip events carry no vblank sequence: pace ourselves */
	bool failed;                     /* not in the last modeset (no buffer, or the kernel refused it): not shown */
	bool rejected;                   /* the kernel refused it (said once until it is shown again) */
	bool buffer_failed;              /* the last dumb buffer could not be made (said once until one is) */
	int64_t buffer_retry_ns;         /* left out of a modeset for want of a buffer: when to try one again */
	/* Its mode could not be shown (the kernel refused it with nothing else to show, or no canvas could be made
	 * for it, canvas_refused): the backend's next dispatch moves it to the next mode (drm_output_fall_back). */
	bool mode_refused, canvas_refused;
	bool fallback_spent;             /* no mode left to fall back to (said once) */
	unsigned fallback_next;          /* where drm_mode_fallback's order goes on */
	drmModeModeInfo first_mode;      /* the mode chosen at first, not tried again in the walk; gone back to at its
					  * end (fallback_spent) */
	uint8_t first_source;            /* its mode_source */
	struct drm_ratelimit rl;
	uint32_t possible_crtcs;         /* the CRTC indices its connector's encoders can drive (card.c drm_assign) */
	/* Legacy (no test commit): a hash of its connector's modes when it fell back (refused_modes_set). A rescan
	 * tries the refused mode again only once they differ, or after the switch back to the VT (cleared then):
	 * each try the kernel refused blanked the screen a moment, at every hotplug burst (card.c chosen_mode_back). */
	uint32_t refused_modes;
	bool refused_modes_set;
	/* Its connector's encoders (the first DRM_OUTPUT_MAX_ENCODERS): one drives one connector at a time, so a
	 * connector that shares one with it waits while it is shown (card.c assign_and_create, drm_assign). */
	uint32_t enc_ids[DRM_OUTPUT_MAX_ENCODERS];
	uint8_t n_enc_ids;
};

struct drm_card_crtc {
	uint32_t id;
	uint32_t props[CRTC__COUNT];
};

struct drm_card_plane {
	uint32_t id;
	uint32_t possible_crtcs;
	uint64_t type; /* DRM_PLANE_TYPE_* */
	bool xrgb8888;
	uint32_t props[PLANE__COUNT];
};

#define DRM_MAX_OUTPUTS 8

struct drm_card {
	struct drm_backend *b;
	int fd;
	dev_t devnum;
	char path[64];
	bool atomic;
	drmModeAtomicReq *flip_req; /* reused by every flip (no allocation per frame); NULL until the first */
	bool prefer_shadow;
	bool needs_modeset;  /* the next commit on this card is a full modeset */
	bool modeset_failed; /* log once */
	bool not_master;     /* a commit got EACCES (kms.c not_master): said once until a modeset succeeds */
	bool master_held;    /* drmSetMaster refused while the display is ours (master.c): said once until taken */
	int64_t master_backoff_ns; /* drmSetMaster asked again after this long (master.c); 0: not asked */
	bool going_away;     /* a commit got ENODEV (kms.c going_away): said once until a modeset succeeds */
	int64_t retry_ns;    /* commit on this card again at this time (after EBUSY or a failure); 0 = none */
	unsigned n_crtcs, n_planes;
	struct drm_card_crtc *crtcs;
	struct drm_card_plane *planes;
	unsigned n_outputs;
	struct drm_output *outputs[DRM_MAX_OUTPUTS];
	/* Connected connectors that could not be used (no modes, no free CRTC, not the mode asked for): why is said
	 * once (card.c scan_connector); quiet while one of them is tried again. */
	uint32_t unusable[16];
	unsigned n_unusable;
	bool quiet;
	/* CRTC_ID property of every connector there, looked up once per connector (for disabling the others);
	 * forgotten when the connector is gone (kms.c forget_gone_conns). */
	unsigned n_conns;
	struct drm_card_conn {
		uint32_t id, crtc_prop;
	} conns[32];
	/* use-original-mode: what drove each connector when the card was opened, before any commit of ours (read
	 * only with the option on and the seat ours). Used by the first scan only (originals_done after it): a
	 * connector connected later, or again, has no mode of its own to keep. */
	bool originals_done;
	bool originals_read; /* card_read_originals ran */
	unsigned n_originals;
	struct drm_card_original {
		uint32_t conn_id;
		bool valid;      /* mode is what the connector's CRTC drove */
		const char *why; /* else why there is none (a static string) */
		drmModeModeInfo mode;
	} originals[32];
};

/* Where an output's mode came from. */
enum drm_mode_source {
	DRM_SOURCE_PREFERRED, /* the connector's preferred mode (or its first) */
	DRM_SOURCE_ASKED,     /* --mode WxH */
	DRM_SOURCE_KEPT,      /* use-original-mode: the CRTC's mode at start, among the connector's modes */
	DRM_SOURCE_KEPT_UNLISTED, /* the same, not among them: the CRTC's mode itself */
	DRM_SOURCE_FALLBACK,      /* the one chosen could not be shown: the next one the kernel lists */
};

/* assign.c: CRTCs and primary planes for connectors (see there). One connector: */
#define DRM_ASSIGN_MAX_CRTCS 32  /* possible_crtcs is a 32-bit mask */
#define DRM_ASSIGN_MAX_PLANES 32 /* primary planes that take XRGB8888 */
#define DRM_ASSIGN_MAX_ENCODERS 32 /* the connectors' encoders (a DP MST connector lists one per pipe) */
struct drm_assign_conn {
	uint32_t crtcs;    /* the CRTC indices its encoders can drive (used when encoders is 0) */
	uint32_t encoders; /* its encoders' indices in enc_crtcs: it reaches a CRTC through one of them, which then
			    * drives no other connector; 0: straight to the CRTCs of crtcs */
	int keep_crtc;   /* shown: the CRTC index it is on (kept unless another display can only be shown so); else -1 */
	int keep_plane;  /* shown, atomic: its plane's index in plane_crtcs; else -1 */
	int prefer_crtc; /* not shown: the CRTC index the kernel drives it with now (fbcon's), taken when free; or -1 */
	int crtc, plane; /* the answer: CRTC index and plane index, -1 for none (plane: always on legacy) */
};
/* Fills crtc and plane of the n_conns connectors (at most DRM_MAX_OUTPUTS; the shown ones and then the others in
 * the order they are to be served) so that as many as possible get a CRTC of their own, through an encoder of
 * their own (enc_crtcs[e]: the CRTCs encoder e can drive, n_encs of them) and, when need_plane, a primary plane of
 * their own whose mask (plane_crtcs[p], n_planes of them) holds that CRTC. A shown connector always keeps one; it
 * moves only when that serves one more. Returns how many got a CRTC. conns is the caller's; enc_crtcs and
 * plane_crtcs are only read. */
unsigned drm_assign(struct drm_assign_conn *conns, unsigned n_conns, unsigned n_crtcs, const uint32_t *enc_crtcs,
		    unsigned n_encs, const uint32_t *plane_crtcs, unsigned n_planes, bool need_plane);

/* card.c */
int drm_card_open(struct drm_backend *b, const char *path, dev_t devnum, struct drm_card **out);
void drm_card_close(struct drm_card *card);
/* Matches outputs to connected connectors (CRTCs and planes: drm_assign). Returns true when outputs were added or
 * removed or one's mode changed (a fallback left: chosen_mode_back); -EINVAL in *err when a connector lacks the
 * requested mode. */
bool drm_card_scan(struct drm_card *card, int *err);
/* A "change" uevent named connector conn_id (CONNECTOR=, without PROPERTY=: the kernel's hotplug event for one
 * connector, sent when its status or EDID changed). Unplugged and plugged again before the loop read the uevents,
 * a display of the same EDID lists the same modes at the scan after them: on legacy, one on a fallback mode would
 * not try its mode again (refused_modes) and stayed on the fallback, where one seen unplugged comes back on its
 * mode. Its next scan tries the mode, as for a display plugged anew. */
void drm_card_connector_event(struct drm_card *card, uint32_t conn_id);
/* The mode conn would show, into *mode: returns where it comes from (enum drm_mode_source), or -1 when conn
 * cannot be used (logged, naming it as name). With use-original-mode, the mode its CRTC drove when the card was
 * opened (until the card's first scan is done), else the preferred one with a line saying why. Sets *err to
 * -EINVAL only when the mode asked for (--mode) is missing from a connector that has modes; a connector without
 * modes (and no original mode) is only skipped. Does not take ownership of conn or name. */
int drm_card_choose_mode(const struct drm_card *card, const drmModeConnector *conn, const char *name,
			 drmModeModeInfo *mode, int *err);
/* Whether out, still connected as conn, keeps its mode at a rescan (hotplug event, resume): a mode asked for or
 * preferred while it is still the one we would choose (a monitor or a virtual display may change its preferred
 * mode while connected); a kept original mode while conn still lists it (or never did): the mode chosen at start
 * stays, whatever another DRM master showed meanwhile. Any of them while conn lists no modes at all (an EDID not
 * read at this probe). */
bool drm_output_keeps_mode(const struct drm_output *out, const drmModeConnector *conn);
void drm_card_handle_events(struct drm_card *card);
/* out's mode could not be shown (mode_refused; canvas_refused: none smaller fits): the next of its connector's
 * modes (drm_mode_fallback), its buffers made again for it, said once per mode; with none left, back to the first
 * mode (fallback_spent, said once). Returns true when the mode changed (the canvas must follow; false with a flip
 * in flight, or none left while on the first mode already). */
bool drm_output_fall_back(struct drm_output *out);
/* Whether the kernel would show out at mode m beside the card's other outputs: a TEST_ONLY commit with a buffer
 * of m's size made for it (and freed); nothing changes on screen. 0, or -errno. Legacy KMS has no test: 0 (the
 * modeset tries it, and falls back again when refused). */
int drm_output_test_mode(struct drm_output *out, const drmModeModeInfo *m);
/* kms.c: the test commit of drm_output_test_mode, out showing buf (at out->mode), the others what they show. */
int drm_card_test_output(struct drm_card *card, struct drm_output *out, struct drm_buffer *buf);

/* output.c */
int drm_output_buffers_init(struct drm_output *out);
/* Creates the buffers drm_output_buffers_init left for later and faults their pages in. Returns 0 or -errno. */
int drm_output_buffers_prepare(struct drm_output *out);
void drm_output_buffers_finish(struct drm_output *out);
void drm_output_destroy(struct drm_output *out);
/* Paints a free buffer as `pending` from the canvas (the union of damage over its age; everything when full).
 * In direct mode the buffer is the prepared one, which the program painted: nothing is copied. Fills clips with
 * what changed. Returns 0, -EBUSY when no buffer is free, or -ENOMEM when a buffer could not be made. */
int drm_output_paint(struct drm_output *out, bool full, struct drm_region *clips);
/* Direct mode: the buffer the program paints the next frame into (out->prepared, chosen and brought up to date
 * on the first call after a commit, except for the boxes of cover, which the caller promises to repaint); its
 * pixels and stride, or NULL when no buffer is free. cover (n_cover boxes, may be NULL) is only read. */
uint32_t *drm_output_prepare(struct drm_output *out, uint32_t *stride, const struct drm_box *cover, size_t n_cover);
void drm_output_commit_done(struct drm_output *out, uint64_t seq);
void drm_output_commit_failed(struct drm_output *out);
/* The sequence for a flip we complete ourselves (a legacy modeset, the watchdog, a suspend): no event told us
 * whether the driver has vblank interrupts, so the next frame is paced a refresh later as if it had none. Without
 * that, the first page flip after a legacy drmModeSetCrtc on virtio-gpu went out at once and completed a few
 * milliseconds after the modeset: a flip faster than the display. */
#define DRM_SEQ_SYNTHETIC 0xffffffffu
void drm_output_flip_done(struct drm_output *out, unsigned int sequence);
bool drm_output_can_take_frame(const struct drm_output *out, int64_t now);

/* kms.c: atomic and legacy commits */
int drm_card_modeset(struct drm_card *card);
int drm_output_flip(struct drm_output *out);
int drm_card_set_active(struct drm_card *card, bool active);

/* backend.c: what cards and outputs need from the backend */
struct drm_backend_cfg_view {
	uint32_t mode_width, mode_height;
	bool use_original_mode;
	enum drm_rotation rotation;
	bool force_legacy;
	bool force_shadow;
	bool force_fbdev; /* drm=off: no DRM card is opened; the first fbdev is shown, emulations included */
};

#define DRM_MAX_CARDS 8
#define DRM_RETRY_NS (1000LL * 1000000)
#define DRM_BUSY_RETRY_NS (20LL * 1000000)
/* A card whose commits answer ENODEV (unplugged, its "remove" uevent not read yet: kms.c going_away) is tried again
 * only this late, in case no uevent comes. */
#define DRM_GONE_RETRY_NS (10000LL * 1000000)
#define DRM_OPEN_RETRY_NS (250LL * 1000000)
#define DRM_OPEN_ATTEMPTS 20

/* The backend; see drm.h. Owned by backend.c; hotplug.c manages its cards. */
struct drm_backend {
	struct drm_backend_cfg_view cfg;
	char seat[64];
	unsigned dpms_timeout_s;
	struct drm_backend_iface iface;
	void *ud;

	int epfd, timerfd;
	int64_t armed_ns; /* when timerfd fires; 0 = disarmed */
	struct udev *udev;
	struct udev_monitor *mon;

	unsigned n_cards;
	struct drm_card *cards[DRM_MAX_CARDS];

	/* The canvas: in ordinary memory, or (direct) only a size: with one output on a card that does not prefer a
	 * shadow (DRM_CAP_DUMB_PREFER_SHADOW = 0), the program paints into that output's dumb buffers and there is
	 * no full-screen copy in ordinary memory. */
	struct drm_canvas canvas;
	bool direct;
	uint64_t seq;
	struct drm_backend_stats stats;
	bool suspended, blanked;
	/* Blanking asked for while a flip was in flight: set by drm_backend_set_blank, which the dispatch of the flip
	 * event (or of the watchdog) calls again; cleared by blanking, unblanking and suspending. */
	bool blank_pending;
	bool blank_failed; /* the last DPMS off was refused: said once until one is taken */
	bool creating; /* no outputs_changed callback before drm_backend_create returns */
	bool canvas_recheck; /* a modeset left an output out or showed it again: update the canvas at dispatch */
	bool waiting_logged; /* "no usable card" said once per wait */
	bool seat_refused;   /* the last card open failed with EPERM: the seat disabled us (a VT switch away) */
	/* Outputs destroyed so far, and at the last drm_backend_update_canvas: an output replaced by one of the same
	 * size leaves the canvas as it was, but its new buffers hold nothing. */
	uint64_t outputs_destroyed, outputs_destroyed_seen;
	int64_t last_activity_ns;
	/* Cards whose node could not be opened yet: the kernel announces a card before its driver is done
	 * registering it (open fails with ENODEV), so we try again a few times. */
	struct {
		char syspath[256];
		unsigned attempts;
	} later[DRM_MAX_CARDS];
	unsigned n_later;
	int64_t later_ns;
	/* The framebuffer fallback (fallback.c): the fbdev shown while there is no DRM output; NULL otherwise. */
	struct drm_fbdev *fb;
	bool fb_none_logged; /* "no usable fbdev" said once per wait */
	struct drm_fb_refusals fb_refusals; /* each fbdev's refusal said once (fallback.c open_first) */
	/* Fault injection for tests (KMSCON_FELIS_DRM_DROP_FLIP_EVENT=N): the Nth page-flip event of ours is
	 * ignored as if the kernel never sent it; 0 = none. */
	uint64_t drop_flip_event, flip_events;
};

/* epoll data of the udev monitor (anything else but the timer's is a struct drm_card) */
extern char drm_tag_udev;
void drm_backend_update_canvas(struct drm_backend *b);
/* canvas.c: the outputs whose mode could not be shown (mode_refused) go to their next mode; the canvas follows
 * (canvas_recheck) and their card tries again shortly. Called by the dispatch, never inside a present. */
void drm_backend_fall_back_modes(struct drm_backend *b);

/* hotplug.c */
int drm_hotplug_init(struct drm_backend *b);
void drm_hotplug_finish(struct drm_backend *b);
/* Opens the seat's cards that are not open yet (at start, and on resume: the seat may refuse devices while
 * it is disabled). */
int drm_hotplug_enumerate(struct drm_backend *b);
void drm_hotplug_dispatch(struct drm_backend *b);
void drm_hotplug_retry(struct drm_backend *b, int64_t now);
void drm_hotplug_remove_card(struct drm_backend *b, unsigned idx);
/* Scans every card (drm_card_scan); *changed when an output was added, removed or changed. Returns 0 or the
 * first card's error (-EINVAL: a display lacks the --mode asked for). */
int drm_backend_scan(struct drm_backend *b, bool *changed);
const struct drm_backend_cfg_view *drm_backend_cfg(const struct drm_backend *b);
int drm_backend_open_device(struct drm_backend *b, const char *path);
void drm_backend_close_device(struct drm_backend *b, int fd);
void drm_backend_get_canvas_internal(const struct drm_backend *b, struct drm_canvas *c);
/* Replaces the canvas by a black w x h one (0x0: none; in direct mode only the size). No callback. Returns 0 or
 * -ENOMEM. */
int drm_backend_resize_canvas(struct drm_backend *b, uint32_t w, uint32_t h);
uint64_t drm_backend_next_seq(struct drm_backend *b);
void drm_backend_count(struct drm_backend *b, int what, uint64_t n);
enum { DRM_COUNT_COMMIT, DRM_COUNT_MODESET, DRM_COUNT_FLIP, DRM_COUNT_WATCHDOG, DRM_COUNT_FAST, DRM_COUNT_PIXELS };
bool drm_backend_active(const struct drm_backend *b); /* not suspended, not blanked */
/* drm/master.c. Whether the program says the display is ours (drm_backend_iface.display_ours). */
bool drm_display_ours(const struct drm_backend *b);
/* After a commit on card got EACCES: when the display is ours, card's retry is armed for asking for master again
 * (50 ms, doubling to 1 s) and true is returned; false: a switch away, the seat's resume shows it. */
bool drm_master_wait(struct drm_card *card, int64_t now);
/* Before a modeset on a card that refused master while the display was ours: asks the kernel for it. True: go on
 * with the modeset (master obtained, or the display no longer ours); false: still held, the retry armed. */
bool drm_master_take(struct drm_card *card, int64_t now);
bool drm_backend_is_direct(const struct drm_backend *b);
void drm_backend_frame_ready(struct drm_backend *b);
/* Counts a page-flip event of ours; true when fault injection says to drop this one. */
bool drm_backend_drop_flip_event(struct drm_backend *b);

#endif
