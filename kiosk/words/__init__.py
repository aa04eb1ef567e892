"""The words the kiosk shows, in gettext catalogues (English, Japanese, Simplified Chinese:
`locale/`), looked up by key (`i18n`), and the wording of events, readings, refusals and yaku."""
