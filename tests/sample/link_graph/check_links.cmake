# ctest sample.link_graph: the link closure of the built sample core (written by
# sample/CMakeLists.txt at configure time, file LINKS) holds the plain data types and none
# of the kit's codec, model logic, adapters or builtin glue.
cmake_minimum_required(VERSION 3.22)
file(READ ${LINKS} closure)
if(NOT "ictk_model_types" IN_LIST closure)
  message(FATAL_ERROR "the sample core does not link ictk_model_types: ${closure}")
endif()
foreach(forbidden ictk_codec ictk_model_iceberg ictk_model_rules ictk_model_judge
    ictk_model ictk_adapters ictk_sample ictk_properties ictk_generators)
  if(forbidden IN_LIST closure)
    message(FATAL_ERROR "the sample core links ${forbidden}: ${closure}")
  endif()
endforeach()
message(STATUS "sample core links: ${closure}")
