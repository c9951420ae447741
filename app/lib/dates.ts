import { format } from "date-fns";

/** Spec date formats. */
export const formatCardDate = (date: Date | string) => format(new Date(date), "MMM d, yyyy");
export const formatArticleDate = (date: Date | string) => format(new Date(date), "MMMM d, yyyy");
export const formatCommentDate = (date: Date | string) => format(new Date(date), "MMM d, yyyy 'at' h:mm a");
