/* kmscon-felis/flash.c: see flash.h. */
#include "kmscon-felis/flash.h"

void kf_flash_init(struct kf_flash *f)
{
	*f = (struct kf_flash){0};
}

void kf_flash_on(struct kf_flash *f, uint64_t now)
{
	*f = (struct kf_flash){.on = true, .asked_ns = now};
}

bool kf_flash_off(struct kf_flash *f, uint64_t now, uint64_t hold_max_ns)
{
	if (!f->on)
		return true;
	/* Asked off again while kept on (reload.c turns off what a replaced bell asked off already): its time was
	 * set by the first off; taken again from now it grew by the time since. */
	if (!f->len_ns) {
		f->len_ns = now > f->asked_ns ? now - f->asked_ns : 1;
		if (f->shown_ns)
			f->due_ns = f->shown_ns + f->len_ns;
		else if (hold_max_ns)
			/* the frame that ends the hold shows it and moves this to its own time plus len
			 * (kf_flash_shown) */
			f->due_ns = now + hold_max_ns + f->len_ns;
		else
			f->due_ns = 0;
	}
	if (f->due_ns > now)
		return false;
	kf_flash_init(f);
	return true;
}

bool kf_flash_shown(struct kf_flash *f, uint64_t now)
{
	if (!f->on || f->shown_ns)
		return false;
	f->shown_ns = now ? now : 1;
	if (!f->len_ns)
		return false;
	f->due_ns = f->shown_ns + f->len_ns;
	return true;
}

bool kf_flash_expire(struct kf_flash *f, uint64_t now)
{
	if (!f->on || !f->due_ns || now < f->due_ns)
		return false;
	kf_flash_init(f);
	return true;
}
