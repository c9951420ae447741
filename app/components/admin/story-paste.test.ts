import { Window } from "happy-dom";
import { describe, expect, test } from "vitest";
import { cleanPastedHtml } from "./story-paste";

// The browser's DOMParser, from a DOM of its own (the cleaner runs in the back office's browser only).
const window = new Window();
const parser = new window.DOMParser() as unknown as DOMParser;
const clean = (html: string) => cleanPastedHtml(html, parser);

// Shaped as Google Docs puts a selection on the clipboard (trimmed, styles as Docs writes them).
const GOOGLE_DOCS = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-4a1b2c3d-7fff-1234-5678-9abcdef01234"><h1 dir="ltr" style="line-height:1.38;margin-top:20pt;margin-bottom:6pt;"><span style="font-size:20pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;vertical-align:baseline;white-space:pre-wrap;">Harbour reopens</span></h1><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;">The ferry is </span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:700;">back</span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;font-style:italic;"> tonight</span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:400;">. Read </span><a href="https://example.com/report" style="text-decoration:none;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#1155cc;font-weight:400;text-decoration:underline;">the report</span></a><span style="font-size:11pt;">.</span></p><br><h2 dir="ltr" style="line-height:1.38;"><span style="font-size:16pt;color:#ff0000;font-weight:400;">What changes</span></h2><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" style="line-height:1.38;" role="presentation"><span style="font-size:11pt;font-weight:400;">Hourly departures</span></p></li><li dir="ltr" style="list-style-type:disc;font-size:11pt;" aria-level="1"><p dir="ltr" style="line-height:1.38;" role="presentation"><span style="font-size:11pt;font-weight:400;">Bicycles free</span></p></li></ul><br><div dir="ltr" style="margin-left:0pt;" align="left"><table style="border:none;border-collapse:collapse;"><colgroup><col width="301"></colgroup><tbody><tr style="height:0pt"><td style="border-left:solid #000000 1pt;padding:5pt;"><p dir="ltr" style="line-height:1.2;"><span style="font-size:11pt;font-weight:400;">Cell text</span></p></td></tr></tbody></table></div></b>`;

// Shaped as Word (Windows) puts a selection on the clipboard: mso styles, classes, <o:p>, conditional comments, list paragraphs.
const WORD = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta name=Generator content="Microsoft Word 15"><style><!-- p.MsoNormal {margin:0cm; font-size:11.0pt; font-family:"Calibri",sans-serif;} --></style><!--[if gte mso 9]><xml><o:OfficeDocumentSettings><o:AllowPNG/></o:OfficeDocumentSettings></xml><![endif]--></head><body lang=EN-GB style='tab-interval:36.0pt'><!--StartFragment--><h1><span lang=EN-GB style='font-family:"Calibri Light",sans-serif;mso-fareast-font-family:"Times New Roman";color:#2F5496'>Council budget<o:p></o:p></span></h1><p class=MsoNormal><span style='mso-bidi-font-weight:bold'>The council <b>voted</b> on <i>Tuesday</i>; see <a href="https://example.com/minutes"><span style='color:#0563C1'>the minutes</span></a>.<o:p></o:p></span></p><p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp; </span></span><![endif]>Schools<o:p></o:p></p><p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol;mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp; </span></span><![endif]>Roads<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoListParagraphCxSpFirst style='mso-list:l1 level1 lfo2'><![if !supportLists]><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>First vote<o:p></o:p></p><p class=MsoListParagraphCxSpLast style='mso-list:l1 level1 lfo2'><![if !supportLists]><span style='mso-list:Ignore'>2.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]>Second vote<o:p></o:p></p><!--EndFragment--></body></html>`;

describe("the story editor's paste cleaner", () => {
  test("Google Docs' paste keeps its headings, paragraphs, bold, italic, links and lists, and loses every style, span and table", () => {
    expect(clean(GOOGLE_DOCS)).toBe(
      "<h2>Harbour reopens</h2>" +
        '<p>The ferry is <strong>back</strong><em> tonight</em>. Read <a href="https://example.com/report">the report</a>.</p>' +
        "<h2>What changes</h2>" +
        "<ul><li><p>Hourly departures</p></li><li><p>Bicycles free</p></li></ul>" +
        "<p>Cell text</p>",
    );
  });

  test("Google Docs' bold-looking wrapper (<b style=font-weight:normal>) does not make the whole paste bold", () => {
    expect(clean(GOOGLE_DOCS)).not.toMatch(/<b[ >]/);
  });

  test("Word's paste becomes clean paragraphs: no MsoNormal class, mso styles, <o:p>, comments or blank spacer paragraphs; its list paragraphs become lists", () => {
    const cleaned = clean(WORD);
    expect(cleaned).toBe(
      "<h2>Council budget</h2>" +
        '<p>The council <b>voted</b> on <i>Tuesday</i>; see <a href="https://example.com/minutes">the minutes</a>.</p>' +
        "<ul><li><p>Schools</p></li><li><p>Roads</p></li></ul>" +
        "<ol><li><p>First vote</p></li><li><p>Second vote</p></li></ol>",
    );
    expect(cleaned).not.toMatch(/class=|style=|mso|o:p|<!--|&nbsp;|·/i);
  });

  test("what a story cannot hold goes with its content (scripts, images, frames); what it can hold stays in words", () => {
    expect(clean('<p>Before<script>alert(1)</script><img src="https://x.example/a.png" alt="a"></p><iframe src="https://evil.example"></iframe><p><u>under</u> <font color="red">red</font> <code>x</code></p>')).toBe(
      "<p>Before</p><p>under red x</p>",
    );
  });

  test("links keep only their address; anchors without one become text; headings past h3 become h3", () => {
    expect(clean('<h4 class="x">Minor</h4><p><a name="top">Top</a> <a href="https://example.com" target="_blank" onclick="evil()" style="color:red">go</a></p>')).toBe(
      '<h3>Minor</h3><p>Top <a href="https://example.com">go</a></p>',
    );
  });

  test("a copy inside the editor (ProseMirror's own slice) is left as it is, so images and embeds survive copy and paste", () => {
    const own = '<figure data-story-image="" data-caption="Quay" data-pm-slice="0 0 []"><img src="/media/images/a.png" alt="A"></figure>';
    expect(clean(own)).toBe(own);
  });
});
