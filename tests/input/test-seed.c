/* tests/input/test-seed.c: the modifiers held when a keyboard is opened ("seeds", input.c).
 *
 * Adding a keyboard reads the held modifiers of that keyboard alone. Each reading opens the device node (a
 * private fd, input.c held_modifiers), so reading every keyboard at each addition made n keyboards cost n(n+1)/2
 * opens, ioctls and closes at start (a KVM switch or a dock with dozens of keyboard interfaces); the nodes here
 * do not exist, and each open tried logs one debug line.
 *
 * A seed let go while a key repeats: its release is seen in the kernel's key state only (libinput reports none),
 * which was read before key and pointer events but not before a repeat, so the repeat went on with it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/input-internal.h"
#include "tests/kf-check.h"

static int failures;
static int opens;

static void count_opens(int prio, const char *file, int line, const char *fmt, va_list ap)
{
	(void)prio;
	(void)file;
	(void)line;
	(void)ap;
	if (strstr(fmt, "for its key state"))
		opens++;
}

static struct input_key_event last_key;
static int n_keys;

static void on_key(void *ctx, const struct input_key_event *ev)
{
	(void)ctx;
	last_key = *ev;
	n_keys++;
}

static void on_arm(void *ctx, uint64_t deadline)
{
	(void)ctx;
	(void)deadline;
}

/* Ctrl seeded (held on the keyboard that brought the VT back, Ctrl+Alt+F1), a key pressed with it (input_inject_key
 * goes past the check of the seeds at a press, which here would find Ctrl up), then Ctrl let go: the kernel says
 * so (this keyboard's node does not exist: no key is down on it). The repeats must be of the key alone, as a key
 * pressed now would be, and as X's repeat becomes once Ctrl is let go. */
static void test_repeat_after_seed_release(void)
{
	static const struct input_callbacks cb = {.key = on_key, .arm_timer = on_arm};
	struct input *in = input_create(NULL, &cb, NULL);
	struct input_dev *d = calloc(1, sizeof(*d));

	if (!in || !d) {
		failures++;
		return;
	}
	snprintf(d->node, sizeof(d->node), "/nonexistent/kf-seed/event-repeat");
	d->keyboard = true;
	input_dev_add(in, d, "test keyboard");
	in->seeds[in->n_seeds++] = KEY_LEFTCTRL;
	xkb_state_update_key(in->kbd.state, KEY_LEFTCTRL + 8, XKB_KEY_DOWN);
	input_inject_key(in, KEY_A, true, 1000000);
	CHECK(n_keys == 1 && (last_key.mods & INPUT_MOD_CTRL), "the press carries the seeded Ctrl (mods 0x%x)",
	      last_key.mods);
	input_timer_expired(in, 2000000);
	CHECK(n_keys == 2 && last_key.action == INPUT_KEY_REPEAT, "a repeat (%d events, action %d)", n_keys,
	      (int)last_key.action);
	CHECK(!(last_key.mods & INPUT_MOD_CTRL), "Ctrl let go: the repeat has no Ctrl (mods 0x%x)", last_key.mods);
	CHECK(in->n_seeds == 0, "the seed is gone (%u left)", in->n_seeds);
	input_inject_key(in, KEY_A, false, 2100000);
	free(in->devs);
	in->devs = NULL;
	input_destroy(in);
}

int main(void)
{
	static const struct input_callbacks cb;
	struct input *in = input_create(NULL, &cb, NULL);
	enum { N = 40 };
	int total = 0, keyboards = 0;

	if (!in)
		return 1;
	input_set_log_handler(count_opens);
	for (int i = 0; i < N; i++) {
		struct input_dev *d = calloc(1, sizeof(*d));
		if (!d)
			return 1;
		snprintf(d->node, sizeof(d->node), "/nonexistent/kf-seed/event%d", i);
		d->keyboard = i % 4 != 3; /* a mouse among them: it has no key state to read */
		opens = 0;
		input_dev_add(in, d, "test keyboard");
		total += opens;
		keyboards += d->keyboard;
		CHECK(opens == (d->keyboard ? 1 : 0), "device %d (%s) added: %d nodes opened, want %d", i,
		      d->keyboard ? "keyboard" : "pointer", opens, d->keyboard ? 1 : 0);
	}
	printf("%d keyboards added: %d opens\n", keyboards, total);
	/* input_destroy unrefs each device's libinput_device: none here */
	for (struct input_dev *d = in->devs, *next; d; d = next) {
		next = d->next;
		free(d);
	}
	in->devs = NULL;
	input_destroy(in);
	test_repeat_after_seed_release();
	printf("seed: %d failures\n", failures);
	return failures ? 1 : 0;
}
