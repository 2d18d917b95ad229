-- A promo code typed on the camp form went to the page of the parent's place in line in that page's
-- address, and from there into browser history, proxies' logs and referrers. It is kept with the
-- place in line instead, and applied from there once a seat is held.
ALTER TABLE "camp_line" ADD COLUMN "promo_code" text;
