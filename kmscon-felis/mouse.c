/* kmscon-felis/mouse.c: xterm mouse reports and click counting (see mouse.h for the reference). */
#include "kmscon-felis/mouse.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "input/input.h"

/* The legacy encodings send each value as one byte (or UTF-8 character) offset by 32: positions reach 223
 * (2015 in UTF-8). */
#define LEGACY_MAX 223
#define UTF8_MAX 2015

static int button_code(const struct kf_mouse_report *r, bool sgr)
{
	int b = r->button, code;

	if (b >= 8)
		code = 128 + (b - 8);
	else if (b >= 4)
		code = 64 + (b - 4);
	else
		code = b;
	/* The legacy encodings cannot say which button was released. */
	if (r->action == KF_MOUSE_RELEASE && !sgr)
		code = 3;
	if (r->action == KF_MOUSE_MOTION)
		code += 32;
	if (r->mods & INPUT_MOD_SHIFT)
		code += 4;
	if (r->mods & (INPUT_MOD_ALT | INPUT_MOD_META))
		code += 8;
	if (r->mods & INPUT_MOD_CTRL)
		code += 16;
	return code;
}

static size_t put_legacy_value(uint8_t *out, int v, bool utf8)
{
	v += 32;
	if (!utf8 || v < 0x80) {
		out[0] = (uint8_t)v;
		return 1;
	}
	out[0] = (uint8_t)(0xc0 | v >> 6);
	out[1] = (uint8_t)(0x80 | (v & 0x3f));
	return 2;
}

/* A position (1-based) past the encoding's reach is clamped, and the limit itself is sent as a 0 byte, as xterm
 * does (its EmitMousePosition keeps the old 256-wrapped-to-0 as "a past-end marker"): the application still
 * gets every press and release there, so that a button released far right is not held for ever. */
static size_t put_legacy_pos(uint8_t *out, long long v, int max, bool utf8)
{
	if (v > max) {
		out[0] = 0;
		return 1;
	}
	return put_legacy_value(out, (int)v, utf8);
}

static bool reported(enum grid_mouse_mode mode, const struct kf_mouse_report *r)
{
	switch (mode) {
	case GRID_MOUSE_X10:
		return r->action == KF_MOUSE_PRESS && r->button < 4;
	case GRID_MOUSE_NORMAL:
		return r->action != KF_MOUSE_MOTION;
	case GRID_MOUSE_BUTTON:
		return r->action != KF_MOUSE_MOTION || r->any_button_held;
	case GRID_MOUSE_ANY:
		return true;
	default:
		return false;
	}
}

size_t kf_mouse_encode(enum grid_mouse_mode mode, enum grid_mouse_encoding enc, const struct kf_mouse_report *r,
		       uint8_t *out, size_t cap)
{
	struct kf_mouse_report x10;
	/* 1-based in long long: a cell or pixel at INT_MAX is one past an int (SGR sent it as -2147483648, the
	 * legacy encodings as column 0) */
	long long x = (long long)r->col + 1, y = (long long)r->row + 1;
	int n;
	size_t len = 0;

	if (!reported(mode, r) || r->col < 0 || r->row < 0 || r->x < 0 || r->y < 0 || cap < 32)
		return 0;
	/* Wheel buttons have no release. */
	if (r->action == KF_MOUSE_RELEASE && r->button >= 4 && r->button < 8)
		return 0;
	if (mode == GRID_MOUSE_X10) {
		x10 = *r;
		x10.mods = 0; /* X10 compatibility mode reports no modifiers */
		r = &x10;
	}
	if (enc == GRID_MOUSE_ENC_SGR_PIXELS) {
		x = (long long)r->x + 1;
		y = (long long)r->y + 1;
	}
	switch (enc) {
	case GRID_MOUSE_ENC_SGR:
	case GRID_MOUSE_ENC_SGR_PIXELS:
		n = snprintf((char *)out, cap, "\033[<%d;%lld;%lld%c", button_code(r, true), x, y,
			     r->action == KF_MOUSE_RELEASE ? 'm' : 'M');
		return n > 0 && (size_t)n < cap ? (size_t)n : 0;
	case GRID_MOUSE_ENC_URXVT:
		n = snprintf((char *)out, cap, "\033[%d;%lld;%lldM", button_code(r, false) + 32, x, y);
		return n > 0 && (size_t)n < cap ? (size_t)n : 0;
	case GRID_MOUSE_ENC_UTF8:
	default: {
		bool utf8 = enc == GRID_MOUSE_ENC_UTF8;
		int max = utf8 ? UTF8_MAX : LEGACY_MAX;
		out[len++] = 0x1b;
		out[len++] = '[';
		out[len++] = 'M';
		len += put_legacy_value(out + len, button_code(r, false), utf8);
		len += put_legacy_pos(out + len, x, max, utf8);
		len += put_legacy_pos(out + len, y, max, utf8);
		return len;
	}
	}
}

int kf_mouse_last_cell(enum grid_mouse_encoding enc)
{
	/* 1-based positions past the limit are all sent as 0: 0-based, the limit itself is the first of them */
	switch (enc) {
	case GRID_MOUSE_ENC_DEFAULT: return LEGACY_MAX;
	case GRID_MOUSE_ENC_UTF8: return UTF8_MAX;
	default: return INT_MAX;
	}
}

static bool near(const struct kf_click_pos *a, const struct kf_click_pos *b)
{
	return (a->col == b->col && a->row == b->row) ||
	       (abs(a->x - b->x) <= KF_CLICK_SLOP_PX && abs(a->y - b->y) <= KF_CLICK_SLOP_PX);
}

int kf_clicks_press(struct kf_clicks *c, uint64_t time_usec, int button, struct kf_click_pos at)
{
	bool again = c->count > 0 && c->button == button && near(&c->at, &at) && time_usec >= c->last_usec &&
		     time_usec - c->last_usec <= KF_CLICK_INTERVAL_USEC;

	c->count = again && c->count < 3 ? c->count + 1 : 1;
	c->last_usec = time_usec;
	c->button = button;
	c->at = at;
	return c->count;
}

void kf_clicks_motion(struct kf_clicks *c, struct kf_click_pos at)
{
	if (c->count && !near(&c->at, &at))
		c->count = 0;
}

void kf_pointer_unrotate(int rotation, double u, double v, double *x, double *y)
{
	/* The inverse of drm/rotate.c's map from the picture to the panel: right puts picture (x, y) at the panel's
	 * (1 - y, x), inverted at (1 - x, 1 - y), left at (y, 1 - x). */
	switch (rotation & 3) {
	case 1:
		*x = v, *y = 1.0 - u;
		break;
	case 2:
		*x = 1.0 - u, *y = 1.0 - v;
		break;
	case 3:
		*x = 1.0 - v, *y = u;
		break;
	default:
		*x = u, *y = v;
		break;
	}
}
