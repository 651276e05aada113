"""Makes the weewx archives of this folder with weewx's own code.

Run from a checkout of weewx (github.com/weewx/weewx), with Debian's
python3-configobj:

    cd weewx/src/weewx/tests && TZ=America/Los_Angeles PYTHONPATH=../..:. \
        /usr/bin/python3 /path/to/testdata/weewx/make.py /path/to/testdata/weewx

It provisions each archive with weewx's test-data generator
(gen_fake_data.provision_binding: synthetic records through weewx's
Manager, then weewx's backfill of the daily summaries, archive_day_*, and
its calculation of the derived types), with the parameters of weewx's
own tests (parameters.py) except the dates, the interval and the schema.
The metric archives are weewx's conversion of a US one
(weewx.manager.reconfig, as `weectl database reconfigure` does), their
daily summaries backfilled by weewx.
"""
import os
import sys
import time

import configobj

import gen_fake_data
import parameters  # sets TZ=America/Los_Angeles, as weewx's tests run
import weewx
import weewx.manager
import weewx.schemas.wview
import weewx.schemas.wview_extended

out = os.path.abspath(sys.argv[1])
here = os.path.dirname(os.path.abspath(gen_fake_data.__file__))


def config(name, schema):
    c = configobj.ConfigObj(os.path.join(here, "testgen.conf"), encoding="utf-8")
    c['DataBindings']['wx_binding']['database'] = 'archive_sqlite'
    c['DataBindings']['wx_binding']['schema'] = schema
    c['Databases']['archive_sqlite']['database_name'] = name
    c['DatabaseTypes']['SQLite']['SQLITE_ROOT'] = out
    c['WEEWX_ROOT'] = out
    return c


def ts(*tt):
    return int(time.mktime(tt + (0, 0, -1)))


def generate(name, schema, start, stop, interval):
    path = os.path.join(out, name)
    if os.path.exists(path):
        os.remove(path)
    synthetic = {'start_ts': start, 'stop_ts': stop, 'interval': interval,
                 'year_start': parameters.year_start}
    gen_fake_data.provision_binding(config(name, schema), 'wx_binding', synthetic)


def convert(src, dst, schema, unit_system):
    path = os.path.join(out, dst)
    if os.path.exists(path):
        os.remove(path)
    src_dict = {'database_name': os.path.join(out, src), 'driver': 'weedb.sqlite'}
    dst_dict = {'database_name': path, 'driver': 'weedb.sqlite'}
    weewx.manager.reconfig(src_dict, dst_dict, new_unit_system=unit_system, new_schema=schema)
    with weewx.manager.DaySummaryManager.open_with_create(dst_dict, schema=schema) as m:
        m.backfill_day_summary()


# March 2010 (with the change to daylight saving time), every 30 minutes,
# in the wview_extended schema, US units; then converted to METRIC.
generate('us-extended.sdb', 'weewx.schemas.wview_extended.schema',
         ts(2010, 3, 1, 0, 30, 0), ts(2010, 4, 1, 0, 0, 0), 1800)
convert('us-extended.sdb', 'metric-extended.sdb', weewx.schemas.wview_extended.schema, weewx.METRIC)
# Two weeks of July 2010, every 30 minutes, in the old wview schema, US
# units; then converted to METRICWX.
generate('us-wview.sdb', 'weewx.schemas.wview.schema',
         ts(2010, 7, 1, 0, 30, 0), ts(2010, 7, 15, 0, 0, 0), 1800)
convert('us-wview.sdb', 'metricwx-wview.sdb', weewx.schemas.wview.schema, weewx.METRICWX)
os.remove(os.path.join(out, 'us-wview.sdb'))  # the METRICWX copy is the one kept
for name in os.listdir(out):
    if name.endswith('.sdb'):
        with weewx.manager.Manager.open({'database_name': os.path.join(out, name), 'driver': 'weedb.sqlite'}) as m:
            # Smaller pages for a smaller file: over a hundred small tables.
            m.connection.execute('PRAGMA page_size = 1024')
            m.connection.execute('VACUUM')
