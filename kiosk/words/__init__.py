"""The words the kiosk shows, English and Japanese: the message catalogue and the wording of
events, readings, refusals and yaku."""
