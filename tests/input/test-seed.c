/* tests/input/test-seed.c: adding a keyboard reads the held modifiers of that keyboard alone. Each reading
 * opens the device node (a private fd, input.c held_modifiers), so reading every keyboard at each addition
 * made n keyboards cost n(n+1)/2 opens, ioctls and closes at start (a KVM switch or a dock with dozens of
 * keyboard interfaces); the nodes here do not exist, and each open tried logs one debug line. */
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
	printf("seed: %d failures\n", failures);
	return failures ? 1 : 0;
}
