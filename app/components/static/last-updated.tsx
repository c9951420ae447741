import { useEffect, useState } from "react";
import { inTimeZone, isoDayOf, longDayOf, useSiteTimeZone } from "~/lib/dates";

/**
 * "Last Updated: {today}" in 'MMMM d, yyyy', in the site's time zone. Rendered on the server, then set
 * again after hydration, because a page served from the page cache may have been rendered on an earlier day.
 */
export function LastUpdatedToday() {
  const timeZone = useSiteTimeZone();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => setNow(new Date()), []);
  const today = inTimeZone(now, timeZone);
  return (
    <>
      Last Updated:{" "}
      <time dateTime={isoDayOf(today)} suppressHydrationWarning>
        {longDayOf(today)}
      </time>
    </>
  );
}
